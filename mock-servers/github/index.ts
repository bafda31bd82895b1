/** The github mock server's public surface: its server spec, which the registry lists. */

export { githubServer } from "./server.ts";
