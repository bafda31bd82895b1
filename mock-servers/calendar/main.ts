import { runStdio } from "../kit/index.ts";
import { calendarServer } from "./server.ts";

await runStdio(calendarServer);
