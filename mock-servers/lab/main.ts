import { runStdio } from "../kit/index.ts";
import { labServer } from "./server.ts";

await runStdio(labServer);
