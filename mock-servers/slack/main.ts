import { runStdio } from "../kit/stdio.ts";
import { slackServer } from "./server.ts";

await runStdio(slackServer);
