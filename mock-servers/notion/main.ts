import { runStdio } from "../kit/stdio.ts";
import { notionServer } from "./server.ts";

await runStdio(notionServer);
