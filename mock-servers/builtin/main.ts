import { runStdio } from "../kit/index.ts";
import { builtinServer } from "./server.ts";

await runStdio(builtinServer);
