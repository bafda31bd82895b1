/**
 * A scripted model for tests: canned outputs per stage, handed out in order. It records every request
 * it got and fails loudly — a ScriptExhaustedError naming the stage and the prompt — when a stage's
 * script runs out, so a test never passes on an answer nobody wrote.
 */

import { OnsetlabError } from "../errors.ts";
import { estimateTokens } from "./prompt-size.ts";
import type {
  ChatRequest,
  ChatResponse,
  CompletionRequest,
  CompletionResponse,
  ModelProvider,
  ModelStage,
  ModelUsage,
  NativeToolCall,
} from "./types.ts";

/** One canned reply: plain text, or text and/or native tool calls, or an error to throw. */
export type ScriptedReply =
  | string
  | { text?: string; toolCalls?: NativeToolCall[]; usage?: ModelUsage }
  | { error: Error };

export type Script = Partial<Record<ModelStage, ScriptedReply[]>>;

export type ScriptedRequest = (CompletionRequest & { kind: "complete" }) | (ChatRequest & { kind: "chat" });

export class ScriptExhaustedError extends OnsetlabError {}

export class ScriptedModel implements ModelProvider {
  readonly id: string;
  /** Every request, in order (signals left out). */
  readonly requests: ScriptedRequest[] = [];
  private readonly queues = new Map<ModelStage, ScriptedReply[]>();
  private exhausted: string[] = [];

  constructor(script: Script, id = "scripted:test") {
    this.id = id;
    for (const [stage, replies] of Object.entries(script) as [ModelStage, ScriptedReply[]][]) {
      this.queues.set(stage, [...replies]);
    }
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    this.requests.push({ ...withoutSignal(request), kind: "complete" });
    const reply = this.next(request.stage, request.prompt);
    return { text: reply.text ?? "", usage: reply.usage, timings: { totalMs: 0 } };
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    this.requests.push({ ...withoutSignal(request), kind: "chat", messages: structuredClone(request.messages) });
    const reply = this.next(request.stage, request.messages.map((message) => message.content).join("\n"));
    return { text: reply.text ?? "", toolCalls: reply.toolCalls ?? [], usage: reply.usage, timings: { totalMs: 0 } };
  }

  /** Requests made at one stage, in order. */
  requestsFor(stage: ModelStage): ScriptedRequest[] {
    return this.requests.filter((request) => request.stage === stage);
  }

  /** Replies not yet used, per stage. */
  remaining(): Partial<Record<ModelStage, number>> {
    return Object.fromEntries([...this.queues].filter(([, queue]) => queue.length > 0).map(([s, q]) => [s, q.length]));
  }

  /** Throws when a stage ran out during the test or replies were left unused. */
  assertFinished(): void {
    const left = this.remaining();
    if (this.exhausted.length > 0 || Object.keys(left).length > 0) {
      throw new ScriptExhaustedError(
        "SCRIPT_MISMATCH",
        `script not used as written: ran out at [${this.exhausted.join(", ")}], unused ${JSON.stringify(left)}`,
        { context: { exhausted: this.exhausted, remaining: left } },
      );
    }
  }

  private next(stage: ModelStage, prompt: string): { text?: string; toolCalls?: NativeToolCall[]; usage: ModelUsage } {
    const reply = this.queues.get(stage)?.shift();
    if (reply === undefined) {
      this.exhausted = [...this.exhausted, stage];
      throw new ScriptExhaustedError(
        "SCRIPT_EXHAUSTED",
        `scripted model has no reply left for stage "${stage}"; prompt began: ${JSON.stringify(prompt.slice(0, 160))}`,
        { context: { stage, prompt } },
      );
    }
    if (typeof reply === "string") return { text: reply, usage: estimateUsage(prompt, reply) };
    if ("error" in reply) throw reply.error;
    return { ...reply, usage: reply.usage ?? estimateUsage(prompt, reply.text ?? "") };
  }
}

function withoutSignal<T extends { signal?: AbortSignal }>(request: T): Omit<T, "signal"> {
  const { signal: _signal, ...rest } = request;
  return rest;
}

/** Nominal tokens: enough for the cost columns of a test trace. */
function estimateUsage(prompt: string, output: string): ModelUsage {
  return {
    promptTokens: estimateTokens.nominal(prompt.length),
    completionTokens: estimateTokens.nominal(output.length),
  };
}
