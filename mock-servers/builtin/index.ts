/** The builtin mock server's public surface: its server spec, which the registry lists. */

export { builtinServer } from "./server.ts";
