/** The contract every mock MCP server is written against: tools as data + handlers, state from fixtures. */

export type JsonSchema = { [key: string]: unknown };

export interface ToolAnnotations {
  title?: string;
  readOnlyHint: boolean;
  /** Required for every non-read-only tool: the agent's write guard relies on it. */
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolContext<S> {
  /** The server's live state (mutable). Reset restores a fresh copy from the fixtures. */
  state: S;
  /** The fixed clock every server shares, so time-dependent results are deterministic. */
  now: Date;
}

export interface ToolSpec<S> {
  name: string;
  description: string;
  /** JSON Schema of an object; validated with ajv before the handler runs. */
  inputSchema: JsonSchema;
  /** JSON Schema of the object the handler returns (sent as structuredContent). */
  outputSchema: JsonSchema;
  annotations: ToolAnnotations;
  /** Returns the structured result. Throw ToolError for a domain failure (not found, refused …). */
  handler: (args: Record<string, unknown>, ctx: ToolContext<S>) => unknown | Promise<unknown>;
}

export interface StateCheckResult {
  pass: boolean;
  detail: string;
}

/** A named end-state check the dataset can ask for, e.g. `issue_exists`. */
export type StateCheck<S> = (state: S, args: Record<string, unknown>) => StateCheckResult;

export interface ServerSpec<S> {
  name: string;
  version: string;
  /** One sentence: what this server imitates. */
  purpose: string;
  /** Builds a fresh state from the fixtures. Called at start and on every reset; must be deterministic. */
  createState: () => S;
  tools: ToolSpec<S>[];
  checks: Record<string, StateCheck<S>>;
}

export type { FaultConfig } from "../../src/tool-protocol/faults.ts";

/** Fixed "now" for every mock server (calendar, datetime, GitHub timestamps …). */
export const MOCK_NOW = new Date("2026-03-16T09:30:00.000Z");
