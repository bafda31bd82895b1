import { runStdio } from "../kit/index.ts";
import { notionServer } from "./server.ts";

await runStdio(notionServer);
