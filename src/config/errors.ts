/** Typed errors of models.yaml: both are InputErrors (the CLI maps them to exit code 2). */

import { InputError } from "../errors.ts";

/** models.yaml is unreadable or invalid; the message names the file and the key path. */
export class ModelsConfigError extends InputError {}

/** A configuration or matrix name that models.yaml does not define. */
export class UnknownConfigurationError extends InputError {}

/** An agent file (`--agent-file`) that cannot be read or breaks docs/schemas/agent-file.schema.json. */
export class AgentFileError extends InputError {}

/** An agent definition (agents/<name>.md) or a file it is given that cannot be read, parsed or rendered. */
export class AgentDefinitionError extends InputError {}
