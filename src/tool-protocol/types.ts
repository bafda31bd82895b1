/** What the agent sees of the MCP layer: tool definitions and a call that never throws. */

export type JsonSchema = { [key: string]: unknown };

export interface ToolAnnotationsInfo {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDefinition {
  /** The registry name of the server that provides the tool. */
  server: string;
  name: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations: ToolAnnotationsInfo;
}

/** How a failed attempt is classified (DESIGN §5, the retry table in src/tool-protocol/retry.ts). */
export type ToolErrorKind =
  | "tool_error" // the tool ran and reported a domain failure (isError result)
  | "invalid_params" // -32602: bad or missing arguments
  | "unknown_tool"
  | "transient" // -32603, connection loss: retried
  | "permanent" // -32002, a tool's memory budget (-32011) or deterministic failure (-32012), other codes
  | "schema_violation" // structuredContent breaks the tool's outputSchema
  | "timeout" // no answer in time (-32001), or the tool stopped at its time budget (-32010): never retried
  | "aborted";

export interface ToolAttempt {
  attempt: number;
  durationMs: number;
  outcome: "ok" | ToolErrorKind;
  code?: number;
  message?: string;
  /** The server had crashed and was restarted before this attempt; its state was reset. */
  restartedServer?: boolean;
  /** The server may have been stuck (no answer in time): it was restarted after this attempt, its state reset. */
  restartedAfter?: boolean;
}

export interface ToolCallError {
  kind: ToolErrorKind;
  message: string;
  code?: number;
  /** Missing required parameters, when the server said which. */
  missing?: string[];
}

export interface ToolCallResult {
  ok: boolean;
  /** structuredContent of a successful result (or the parsed text when a tool has none). */
  data?: unknown;
  /** The result's text content, or the error message. */
  text: string;
  error?: ToolCallError;
  attempts: ToolAttempt[];
  durationMs: number;
  /** A dry run's preview of a write: the call was not made (src/bench/run/dry-run.ts). */
  dryRun?: true;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** The agent's view of the connected servers. Implemented by the client pool (and by test doubles). */
export interface ToolHost {
  /** The connected tools, in connection order. */
  listTools(): readonly ToolDefinition[];
  callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<ToolCallResult>;
}
