/**
 * Makes every tool call of a run: normalises and coerces arguments against the schema (ReWOO, ReAct),
 * applies the write guard where it is on, calls the ToolHost and records the call.
 */

import { coerceArguments, coerceBasic } from "../mcp/coerce.ts";
import type { ToolCallResult, ToolDefinition, ToolHost } from "../tool-protocol/types.ts";
import { renderResult } from "./compact-data.ts";
import { describe } from "./errors.ts";
import { normaliseKeys } from "./normalise.ts";
import type { RunRecorder } from "./recorder.ts";
import { truncate } from "./text.ts";
import { findTool } from "./tool-schema.ts";
import type { ToolCallRecord, ToolCallStage, Validation } from "./types.ts";
import { isWriteTool, type WriteGuard } from "./write-guard.ts";

export interface ToolCallRequest {
  stage: ToolCallStage;
  tool: string;
  args: Record<string, unknown>;
  stepId?: string;
  round?: number;
  /** Normalise keys and coerce types from the schema (the OnsetLab pipeline; baselines send raw). */
  prepare: boolean;
  /** Enforce the write guard for this call. */
  guarded: boolean;
}

export interface ToolRunnerOptions {
  host: ToolHost;
  tools: readonly ToolDefinition[];
  recorder: RunRecorder;
  /** Tracks successful writes for the whole run; null when the write guard is off. */
  guard: WriteGuard | null;
  timeoutMs: number;
  /** `strict`: OnsetLab's narrower type coercion (coerceBasic); default `lenient`. */
  validation?: Validation;
}

export class ToolRunner {
  constructor(private readonly options: ToolRunnerOptions) {}

  /** Does this tool change state (write guard's rule)? Unknown tools count as writes, to be safe. */
  isWrite(name: string): boolean {
    const tool = findTool(this.options.tools, name);
    return tool === undefined || isWriteTool(tool);
  }

  async call(request: ToolCallRequest): Promise<ToolCallRecord> {
    const { recorder, guard } = this.options;
    recorder.ensureRunning(request.stage);
    const prepared = this.prepare(request);
    const base = {
      stage: request.stage,
      ...(request.stepId === undefined ? {} : { stepId: request.stepId }),
      ...(request.round === undefined ? {} : { round: request.round }),
      tool: request.tool,
      ...prepared,
    };

    const blocking = request.guarded ? guard?.blockingCall(request.tool, prepared.args) : undefined;
    if (guard && blocking !== undefined) {
      recorder.emit({ type: "write_guard_block", tool: request.tool, args: prepared.args, stage: request.stage });
      const answer = guard.blockedResult(request.tool, blocking);
      guard.recordBlocked({
        tool: request.tool,
        args: prepared.args,
        stage: request.stage,
        firstCallSeq: blocking.seq,
      });
      return recorder.addToolCall({
        ...base,
        ok: answer.ok,
        text: answer.text,
        ...(answer.ok ? {} : { error: { kind: "tool_error" as const, message: answer.text } }),
        attempts: [],
        startMs: recorder.now(),
        durationMs: 0,
        blocked: true,
      });
    }

    const seq = recorder.reserveToolSeq();
    recorder.emit({
      type: "tool_call",
      stage: request.stage,
      tool: request.tool,
      args: prepared.args,
      ...(request.stepId === undefined ? {} : { stepId: request.stepId }),
    });
    const timed = await recorder.timeTool(() => this.invoke(request.tool, prepared.args));
    const result = timed.value;
    const record = recorder.addToolCall(
      {
        ...base,
        ok: result.ok,
        text: result.text,
        ...(result.data === undefined ? {} : { data: result.data }),
        ...(result.error ? { error: result.error } : {}),
        ...(result.dryRun ? { dryRun: true as const } : {}),
        attempts: result.attempts,
        startMs: timed.startMs,
        durationMs: timed.durationMs,
      },
      seq,
    );
    if (result.ok) guard?.recordSuccess(request.tool, prepared.args, record.seq, result.text, request.guarded);
    recorder.ensureRunning(request.stage);
    return record;
  }

  private prepare(
    request: ToolCallRequest,
  ): Pick<ToolCallRecord, "args" | "argsPlanned" | "renamed" | "coerced" | "coercionProblems"> {
    const tool = findTool(this.options.tools, request.tool);
    if (!request.prepare || !tool) return { args: request.args, renamed: [], coerced: [], coercionProblems: [] };
    const keyed = normaliseKeys(tool, request.args);
    const coerce = this.options.validation === "strict" ? coerceBasic : coerceArguments;
    const coercion = coerce(tool.inputSchema, keyed.args);
    const changed = keyed.renamed.length > 0 || coercion.coerced.length > 0;
    return {
      args: coercion.args,
      ...(changed ? { argsPlanned: request.args } : {}),
      renamed: keyed.renamed,
      coerced: coercion.coerced,
      coercionProblems: coercion.problems,
    };
  }

  /** The ToolHost promises never to throw; if one does anyway, the call still ends as a failed result. */
  private async invoke(tool: string, args: Record<string, unknown>): Promise<ToolCallResult> {
    const { host, recorder, timeoutMs } = this.options;
    const call = callSignal(recorder.signal);
    try {
      return await host.callTool(tool, args, { signal: call.signal, timeoutMs });
    } catch (error) {
      const message = `tool host threw: ${describe(error)}`;
      return { ok: false, text: message, error: { kind: "permanent", message }, attempts: [], durationMs: 0 };
    } finally {
      call.release();
    }
  }
}

/** Tool calls one jsonl or native turn may make; the largest gold item needs five in all. */
export const MAX_CALLS_PER_TURN = 16;

/** The calls of one turn that are made, and the note for those dropped past the cap (if any). */
export function capTurnCalls<T>(calls: readonly T[]): { kept: T[]; dropped: number; note?: string } {
  const dropped = Math.max(0, calls.length - MAX_CALLS_PER_TURN);
  const kept = calls.slice(0, MAX_CALLS_PER_TURN);
  if (dropped === 0) return { kept, dropped };
  return {
    kept,
    dropped,
    note: `${dropped} tool calls past the first ${MAX_CALLS_PER_TURN} of this turn: dropped, not made`,
  };
}

/**
 * A signal of one call's own, aborted with the query's. Hosts (the MCP SDK among them) add an abort
 * listener per call and never remove it; on the query's signal those pile up (MaxListenersExceededWarning).
 * Here they land on a signal dropped with the call, and the one forwarding listener is removed at its end.
 */
function callSignal(query: AbortSignal): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  if (query.aborted) {
    controller.abort(query.reason);
    return { signal: controller.signal, release: () => {} };
  }
  const forward = () => controller.abort(query.reason);
  query.addEventListener("abort", forward, { once: true });
  return { signal: controller.signal, release: () => query.removeEventListener("abort", forward) };
}

/** What a loop feeds back to the model: the result rendered for the question, or the error. */
export function observationText(
  record: Pick<ToolCallRecord, "ok" | "text" | "data">,
  maxChars: number,
  question?: string,
): string {
  return record.ok
    ? renderResult(record.data ?? record.text, maxChars, question)
    : truncate(`ERROR: ${record.text}`, maxChars);
}
