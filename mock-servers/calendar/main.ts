import { runStdio } from "../kit/stdio.ts";
import { calendarServer } from "./server.ts";

await runStdio(calendarServer);
