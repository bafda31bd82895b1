import { runStdio } from "../kit/index.ts";
import { searchServer } from "./server.ts";

await runStdio(searchServer);
