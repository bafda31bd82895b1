import { runStdio } from "../kit/stdio.ts";
import { builtinServer } from "./server.ts";

await runStdio(builtinServer);
