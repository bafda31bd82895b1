/**
 * Records a run as it happens: every model request (through `complete`/`chat` here, never the provider
 * directly), every tool call, and the time spent in each. Also the one place that notices the run was
 * aborted or ran out of time. Each request is recorded whole, as sent.
 */

import { failureInvalid, PromptTooLongError } from "../models/errors.ts";
import { parseToolArguments } from "../models/tool-arguments.ts";
import type {
  ChatMessage,
  ChatRequest,
  ChatResponse,
  CompletionRequest,
  CompletionResponse,
  ModelProvider,
} from "../models/types.ts";
import { ModelCallError, RunAbortedError } from "./errors.ts";
import type { AgentEvent, AgentEventListener } from "./events.ts";
import type { AgentStage, AgentTimings, ModelCallRecord, ToolCallRecord } from "./types.ts";

type Interval = [number, number];

/**
 * Model text longer than this is cut before any parser reads it (and recorded as cut). 32 KB is ~8,000
 * tokens, 16 times the largest output cap the agent asks for (512): only a model that ignored its cap,
 * or a server that did, gets here.
 */
export const MAX_OUTPUT_CHARS = 32_768;

export class RunRecorder {
  readonly modelCalls: ModelCallRecord[] = [];
  readonly toolCalls: ToolCallRecord[] = [];
  private readonly started = performance.now();
  private readonly modelIntervals: Interval[] = [];
  private readonly toolIntervals: Interval[] = [];

  constructor(
    private readonly model: ModelProvider,
    readonly signal: AbortSignal,
    /** Why the signal fired, for the record (caller vs time limit). */
    private readonly abortReason: () => string,
    /** Stage events as they happen (events.ts); a no-op when nobody listens. */
    readonly emit: AgentEventListener = () => {},
  ) {}

  /** Milliseconds since the run started. */
  now(): number {
    return performance.now() - this.started;
  }

  /** Throws RunAbortedError when the run must stop; called before every model and tool call. */
  ensureRunning(stage: AgentStage): void {
    if (this.signal.aborted) throw new RunAbortedError(stage, this.abortReason());
  }

  async complete(stage: AgentStage, request: Omit<CompletionRequest, "signal">): Promise<CompletionResponse> {
    const seq = this.modelCalls.length + 1;
    const record: ModelCallRecord = {
      seq,
      stage: request.stage,
      kind: "complete",
      prompt: request.prompt,
      ...(request.options ? { options: request.options } : {}),
      output: "",
      startMs: 0,
      durationMs: 0,
    };
    const started: AgentEvent = {
      type: "model_call_start",
      seq,
      stage: request.stage,
      kind: "complete",
      prompt: request.prompt,
    };
    const response = await this.track(stage, record, started, () =>
      this.model.complete({ ...request, signal: this.signal }),
    );
    const text = boundOutput(record, response.text);
    this.emitEnd(record);
    return { ...response, text };
  }

  async chat(stage: AgentStage, request: Omit<ChatRequest, "signal">): Promise<ChatResponse> {
    const seq = this.modelCalls.length + 1;
    const record: ModelCallRecord = {
      seq,
      stage: request.stage,
      kind: "chat",
      // a copy as sent: the caller goes on appending to its own list
      messages: request.messages.map(snapshotMessage),
      ...(request.tools ? { tools: request.tools.map((tool) => tool.name) } : {}),
      ...(request.options ? { options: request.options } : {}),
      ...(request.format ? { constrained: true as const } : {}),
      output: "",
      startMs: 0,
      durationMs: 0,
    };
    const started: AgentEvent = {
      type: "model_call_start",
      seq,
      stage: request.stage,
      kind: "chat",
      messages: request.messages,
      ...(request.tools ? { tools: request.tools.map((tool) => tool.name) } : {}),
    };
    const response = await this.track(stage, record, started, () =>
      this.model.chat({ ...request, signal: this.signal }),
    );
    // Providers that hand over parsed objects (the sim, scripts) skip the wire's depth check: applied here.
    const toolCalls = response.toolCalls.map((call) => ({ ...call, ...parseToolArguments(call.arguments) }));
    record.toolCalls = toolCalls;
    const text = boundOutput(record, response.text);
    this.emitEnd(record);
    return { ...response, text, toolCalls };
  }

  /** Times a tool call so tool time is measured as wall clock, overlapping calls counted once. */
  async timeTool<T>(run: () => Promise<T>): Promise<{ value: T; startMs: number; durationMs: number }> {
    const startMs = this.now();
    try {
      return { value: await run(), startMs, durationMs: this.now() - startMs };
    } finally {
      this.toolIntervals.push([startMs, this.now()]);
    }
  }

  /**
   * The seq of a tool call about to start: calls are numbered in the order they START, so concurrent
   * calls of one wave get the same numbers on every run, whichever finishes first.
   */
  reserveToolSeq(): number {
    this.toolCalls.push(undefined as unknown as ToolCallRecord);
    return this.toolCalls.length;
  }

  /** Records a finished call, in its reserved place when it has one. */
  addToolCall(record: Omit<ToolCallRecord, "seq">, seq?: number): ToolCallRecord {
    const full: ToolCallRecord = { seq: seq ?? this.reserveToolSeq(), ...record };
    this.toolCalls[full.seq - 1] = full;
    this.emit({ type: "tool_result", call: full, text: full.text });
    return full;
  }

  timings(): AgentTimings {
    return {
      totalMs: this.now(),
      modelMs: coveredTime(this.modelIntervals),
      toolsMs: coveredTime(this.toolIntervals),
    };
  }

  private emitEnd(record: ModelCallRecord): void {
    this.emit({
      type: "model_call_end",
      seq: record.seq,
      stage: record.stage,
      output: record.output,
      durationMs: this.now() - record.startMs,
      ...(record.error === undefined ? {} : { error: record.error }),
    });
  }

  private async track<T extends CompletionResponse>(
    stage: AgentStage,
    record: ModelCallRecord,
    started: AgentEvent,
    call: () => Promise<T>,
  ): Promise<T> {
    this.ensureRunning(stage);
    record.startMs = this.now();
    this.modelCalls.push(record);
    let cachedMs: number | undefined;
    this.emit(started);
    try {
      const response = await call();
      record.usage = response.usage;
      record.timings = response.timings;
      if (response.context) record.context = response.context;
      if (response.invalid) record.invalid = response.invalid;
      if (response.doneReason) record.doneReason = response.doneReason;
      if (response.thinking) record.thinking = response.thinking;
      // a cached answer was not sent: what its original call shared is not this call's
      if (response.sharedPrefixTokens !== undefined && !response.cached) {
        record.sharedPrefixTokens = response.sharedPrefixTokens;
      }
      if (response.servedBy) record.servedBy = response.servedBy;
      if (response.cached) {
        record.cached = true;
        cachedMs = response.cached.durationMs;
      }
      return response;
    } catch (error) {
      record.error = error instanceof Error ? error.message : String(error);
      const invalid = failureInvalid(error);
      if (invalid) record.invalid = invalid;
      // a prompt the server's tokenizer counted too long was never sent: its count is the record's
      if (error instanceof PromptTooLongError) record.context = error.callContext;
      record.durationMs = this.now() - record.startMs;
      this.emitEnd(record);
      this.ensureRunning(stage);
      throw new ModelCallError(stage, error);
    } finally {
      // a cached answer keeps the original call's duration, so per-call latency describes the model
      record.durationMs = cachedMs ?? this.now() - record.startMs;
      this.modelIntervals.push([record.startMs, this.now()]);
    }
  }
}

/** The text the agent reads: cut at MAX_OUTPUT_CHARS, the cut noted on the record. */
function boundOutput(record: ModelCallRecord, text: string): string {
  if (text.length > MAX_OUTPUT_CHARS) record.outputCut = { at: MAX_OUTPUT_CHARS, of: text.length };
  record.output = text.slice(0, MAX_OUTPUT_CHARS);
  return record.output;
}

/** Length of the union of intervals. */
function coveredTime(intervals: readonly Interval[]): number {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let current: Interval | undefined;
  for (const [start, end] of sorted) {
    if (!current || start > current[1]) {
      if (current) total += current[1] - current[0];
      current = [start, end];
    } else current[1] = Math.max(current[1], end);
  }
  return current ? total + current[1] - current[0] : total;
}

/** The message with its own copy of the tool calls; the strings are immutable, so shared. */
function snapshotMessage(message: ChatMessage): ChatMessage {
  return message.toolCalls ? { ...message, toolCalls: structuredClone(message.toolCalls) } : { ...message };
}
