/** The search mock server's public surface: its server spec, which the registry lists. */

export { searchServer } from "./server.ts";
