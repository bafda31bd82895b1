/** The slack mock server's public surface: its server spec, which the registry lists. */

export { slackServer } from "./server.ts";
