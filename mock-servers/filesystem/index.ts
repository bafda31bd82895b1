/** The filesystem mock server's public surface: its server spec, which the registry lists. */

export { filesystemServer } from "./server.ts";
