/**
 * Which of a trace's calls count, and what the model proposed.
 *
 * A call COUNTS when it reached a server: a tool-call record that the write guard did not block and
 * whose tool exists. Failed calls count too (their arguments were sent); whether a failed call hurts
 * the item is decided later: a failed call that was retried or rescued correctly does not fail it,
 * an extra successful WRITE does, extra read-only look-ups do not (see task-success.ts).
 *
 * A PROPOSED call is what the model asked for, executed or not: every ReWOO plan step (including
 * steps that failed validation), then every loop action (ReAct / jsonl / native turns, then the
 * ReAct fallback), in the order the model wrote them.
 */

import type { ToolCatalog } from "./tool-catalog.ts";
import type { ToolCallView, TraceView } from "./types.ts";

export interface CountedCall {
  seq: number;
  tool: string;
  args: Record<string, unknown>;
  ok: boolean;
  write: boolean;
  errorKind?: string;
  missing?: string[];
}

export interface ProposedCall {
  tool: string;
  source: "plan" | "loop" | "fallback";
  /** Plan steps: why the step could not run. */
  error?: string;
  missing?: string[];
}

/** Counted calls in the order they were issued (start time, then record order). */
export function countedCalls(trace: TraceView, catalog: ToolCatalog): CountedCall[] {
  return trace.toolCalls
    .filter((call) => !call.blocked && catalog.has(call.tool))
    .sort((a, b) => a.startMs - b.startMs || a.seq - b.seq)
    .map((call) => toCounted(call, catalog));
}

function toCounted(call: ToolCallView, catalog: ToolCatalog): CountedCall {
  return {
    seq: call.seq,
    tool: call.tool,
    args: isRecord(call.args) ? call.args : {},
    ok: call.ok,
    write: catalog.isWrite(call.tool),
    ...(call.error ? { errorKind: call.error.kind } : {}),
    ...(call.error?.missing?.length ? { missing: call.error.missing } : {}),
  };
}

export function proposedCalls(trace: TraceView): ProposedCall[] {
  const fromPlan: ProposedCall[] = (trace.plan?.steps ?? []).map((step) => ({
    tool: step.tool,
    source: "plan",
    ...(step.error ? { error: step.error } : {}),
    ...(step.missing?.length ? { missing: step.missing } : {}),
  }));
  const fromLoop = (source: ProposedCall["source"], iterations: TraceView["iterations"]): ProposedCall[] =>
    iterations.flatMap((turn) => (turn.action === undefined ? [] : [{ tool: turn.action, source }]));
  return [...fromPlan, ...fromLoop("loop", trace.iterations), ...fromLoop("fallback", trace.fallback.iterations)];
}

/** Tool names the model used that exist in no tool definition, distinct, in order of first use. */
export function hallucinatedNames(trace: TraceView, catalog: ToolCatalog): string[] {
  const names = [...proposedCalls(trace).map((call) => call.tool), ...trace.toolCalls.map((call) => call.tool)];
  return [...new Set(names.filter((name) => !catalog.has(name)))];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
