/** The calendar mock server's public surface: its server spec, which the registry lists. */

export { calendarServer } from "./server.ts";
