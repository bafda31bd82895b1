import { runStdio } from "../kit/stdio.ts";
import { filesystemServer } from "./server.ts";

await runStdio(filesystemServer);
