import { runStdio } from "../kit/index.ts";
import { slackServer } from "./server.ts";

await runStdio(slackServer);
