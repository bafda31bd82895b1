/**
 * What the scorer reads. The scorer may not import src/agent, so the trace is described here as a
 * structural SUBSET of the agent's `AgentResult` (same field names and shapes, only what scoring
 * reads): the runner passes an AgentResult straight in. test/contract/bench/scoring/trace-view.test.ts fails to typecheck if
 * AgentResult ever stops being assignable to `TraceView`. The tool view is likewise a subset of the
 * MCP layer's `ToolDefinition`.
 */

import type { InvalidReason } from "../../models/types.ts";
import type { StateCheckSpec } from "../dataset/types.ts";

/** One turn of a loop protocol (ReAct, jsonl, native, the ReAct fallback). */
export interface IterationView {
  /** The tool the model asked for (also when it does not exist). */
  action?: string;
  /** The model's output could not be read as the protocol. */
  parseError?: string;
  /** ToolCallRecord.seq of the calls this turn made. */
  callSeqs?: number[];
}

/** A parsed ReWOO plan step (after validation; after a rescue, the patched step). */
export interface PlanStepView {
  id: string;
  tool: string;
  args: Record<string, unknown>;
  /** Why the step could not run: unknown tool, missing parameter, bad syntax, bad reference. */
  error?: string;
  missing?: string[];
}

/** A plan step's outcome in one execution round (0 = the first plan, 1 = after a rescue). */
export interface ExecutedStepView {
  id: string;
  tool: string;
  round: number;
  status: "ok" | "error" | "skipped";
  error?: string;
  missing?: string[];
  callSeq?: number;
}

/** One tool call, or an attempt the write guard blocked before it reached the server. */
export interface ToolCallView {
  seq: number;
  stage: string;
  stepId?: string;
  round?: number;
  tool: string;
  /** Arguments exactly as sent to the server (after key normalisation and coercion). */
  args: Record<string, unknown>;
  ok: boolean;
  error?: { kind: string; message: string; missing?: string[] };
  /** Milliseconds since the run started. */
  startMs: number;
  durationMs: number;
  blocked?: boolean;
}

export interface ModelCallView {
  stage: string;
  /** Wall-clock duration measured by the agent. */
  durationMs: number;
  usage?: { promptTokens: number; completionTokens: number };
  /** As the provider reported them (simulated for `sim:*`). */
  timings?: { totalMs: number; loadMs?: number; promptEvalMs?: number; evalMs?: number };
  error?: string;
  /** Set by the provider (or the recorder, for a server failure): this call's answer cannot be scored. */
  invalid?: InvalidReason;
  /** Answered from the request cache (its usage and timings are the original call's). */
  cached?: boolean;
}

export interface RescueView {
  stepId: string;
  tool: string;
  param: string;
  value: unknown;
  pattern: string;
  round: number;
}

/** The part of the agent's trace (`AgentResult`) the scorer reads. */
export interface TraceView {
  /** The path taken: `rewoo`, `react`, `native`, `jsonl`, `direct`, or `none` (stopped before routing). */
  path?: string;
  /** Every connected tool, and what the planner / ReAct prompt listed (native, jsonl: all connected). */
  tools?: { available: string[]; filtered: string[]; blind?: true };
  /** Present when the router ran (strategy `auto`). */
  route?: { route: string; rule: string };
  /** ReWOO only: `raw` is the planner's completion (the text after the prompt's `#E1 =`). */
  plan?: { raw: string; steps: PlanStepView[] };
  modelCalls: ModelCallView[];
  steps: ExecutedStepView[];
  toolCalls: ToolCallView[];
  rescues: RescueView[];
  fallback: { used: boolean; iterations: IterationView[] };
  /** ReAct / jsonl / native turns of the main strategy. */
  iterations: IterationView[];
  /** `native`: answers whose tool calls came back as text (the server did not parse them). */
  toolCallsAsText?: { calls: { name: string }[]; executed: boolean }[];
  writeGuard: { blocked: { tool: string; firstCallSeq: number }[] };
  answer: string;
  /** The run stopped early: `RUN_ABORTED` (time limit or caller), `MODEL_CALL_FAILED`, `MAX_ITERATIONS` … */
  error?: { stage: string; code: string; message: string };
  timings: { totalMs: number; modelMs: number; toolsMs: number };
}

/** A tool as the scorer needs it: its schema (for argument matching) and whether it writes. */
export interface ToolView {
  name: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean };
}

/**
 * The raw result of one end-state check as the runner got it (a mock's `__check`, or a read-only tool call):
 * `pass` is the check itself, BEFORE `spec.negate` is applied (the scorer interprets negation).
 */
export interface StateCheckOutcome {
  spec: StateCheckSpec;
  pass: boolean;
  detail: string;
  /** A tool-call check whose call could not be made: it fails, negated or not. */
  notRun?: boolean;
}
