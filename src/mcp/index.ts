/** The MCP transport's public surface: the client pool, registry entries and launch, argument coercion, output validation. The tool contract it shares with the servers is src/tool-protocol's. */

export type { RegistryShape } from "./client-config.ts";
export { coerceArguments, coerceBasic } from "./coerce.ts";
export type { InProcessFactory, InProcessServer, TransportKind } from "./connection.ts";
export { ClientPool, ownStopSignals, type PoolOptions, type ResetsRun } from "./pool.ts";
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
