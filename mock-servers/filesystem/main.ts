import { runStdio } from "../kit/index.ts";
import { filesystemServer } from "./server.ts";

await runStdio(filesystemServer);
