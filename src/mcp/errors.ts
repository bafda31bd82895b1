import { InputError, OnsetlabError } from "../errors.ts";

/** registry.json is unreadable or an entry is malformed; names the file, entry and field. */
export class RegistryError extends InputError {}

/**
 * A server could not be started or did not complete the MCP handshake when a command began: its registry
 * entry (command, args, env) is wrong, or the server is broken. Bad input: nothing has run yet.
 */
export class ServerConnectError extends InputError {}

/** A remote server (http, sse) did not connect: it refused or did not answer in time. A run error, not bad input. */
export class RemoteServerError extends OnsetlabError {}

/** A server could not be put back between tasks (its reset command failed, it would not restart): a run error. */
export class ServerResetError extends OnsetlabError {}

/** Two servers expose a tool of the same name: the agent could not tell them apart. */
export class ToolNameConflictError extends InputError {}

/** A server name that the registry (or the pool) does not know, or a control call on a non-mock server. */
export class UnknownServerError extends InputError {}
