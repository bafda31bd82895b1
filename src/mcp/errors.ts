import { InputError, OnsetlabError } from "../errors.ts";

/** registry.json is unreadable or an entry is malformed; names the file, entry and field. */
export class RegistryError extends InputError {}

/** A server could not be started or did not complete the MCP handshake. */
export class ServerConnectError extends OnsetlabError {}

/** Two servers expose a tool of the same name: the agent could not tell them apart. */
export class ToolNameConflictError extends InputError {}

/** A server name that the registry (or the pool) does not know, or a control call on a non-mock server. */
export class UnknownServerError extends InputError {}
