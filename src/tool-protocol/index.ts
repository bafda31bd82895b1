/**
 * The contract between tool servers and the client that calls them: tool and call types, the JSON-RPC
 * error codes a server sends and how the client classifies (and retries) each failure, and the fault
 * settings both sides read. The mock servers import this part, never the client (src/mcp).
 */

export { FAULTS_ENV, type FaultConfig, FaultConfigError, parseFaults } from "./faults.ts";
export { type Classification, classifyError, RETRY_DELAYS_MS, RETRY_TABLE, TOOL_ERROR_CODES } from "./retry.ts";
export type {
  CallOptions,
  JsonSchema,
  ToolAnnotationsInfo,
  ToolAttempt,
  ToolCallError,
  ToolCallResult,
  ToolDefinition,
  ToolErrorKind,
  ToolHost,
} from "./types.ts";
