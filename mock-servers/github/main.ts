import { runStdio } from "../kit/stdio.ts";
import { githubServer } from "./server.ts";

await runStdio(githubServer);
