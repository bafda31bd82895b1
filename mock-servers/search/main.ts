import { runStdio } from "../kit/stdio.ts";
import { searchServer } from "./server.ts";

await runStdio(searchServer);
