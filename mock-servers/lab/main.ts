import { runStdio } from "../kit/stdio.ts";
import { labServer } from "./server.ts";

await runStdio(labServer);
