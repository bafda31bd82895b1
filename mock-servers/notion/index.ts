/** The notion mock server's public surface: its server spec, which the registry lists. */

export { notionServer } from "./server.ts";
