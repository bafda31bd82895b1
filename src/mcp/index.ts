/** The MCP transport's public surface: the client pool, registry entries and launch, tool types, argument coercion, output validation, and the tool contract it shares with the servers (src/tool-protocol). */

// the tool contract the client shares with the servers, offered again to the client's users
export {
  type CallOptions,
  classifyError,
  FAULTS_ENV,
  type FaultConfig,
  type JsonSchema,
  parseFaults,
  TOOL_ERROR_CODES,
  type ToolAnnotationsInfo,
  type ToolAttempt,
  type ToolCallError,
  type ToolCallResult,
  type ToolDefinition,
  type ToolErrorKind,
  type ToolHost,
} from "../tool-protocol/index.ts";
export type { RegistryShape } from "./client-config.ts";
export { coerceArguments, coerceBasic } from "./coerce.ts";
export type { InProcessFactory, InProcessServer, TransportKind } from "./connection.ts";
export type { PoolOptions } from "./pool.ts";
export { ClientPool, ownStopSignals, type ResetsRun } from "./pool.ts";
export {
  canUndoWrites,
  DEFAULT_REGISTRY,
  isReadOnlyTool,
  loadRegistries,
  loadRegistry,
  parseRegistry,
  REGISTRY_FIELDS,
  RESET_KINDS,
  type Registry,
  type RegistryEntry,
  type ResetKind,
} from "./registry.ts";
export { entryBaseDir, FIXTURE_PLACEHOLDER, passedThroughEnv, resetKind } from "./registry-entry.ts";
export { RestrictedToolHost } from "./restricted-host.ts";
