import { runStdio } from "../kit/index.ts";
import { githubServer } from "./server.ts";

await runStdio(githubServer);
