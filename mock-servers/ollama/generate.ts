/**
 * One generation, whichever API asked for it: the model name checked against what is served, the
 * provider asked (the request's stage from the client's stage header, else inferred from its shape),
 * tool calls given stable ids, and the timing plan the answer will be paced by.
 */

import { createHash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { STAGE_HEADER } from "../../src/models/http.ts";
import type {
  ChatRequest,
  ChatResponse,
  CompletionRequest,
  GenerationOptions,
  ModelProvider,
  ModelStage,
  NativeToolCall,
} from "../../src/models/types.ts";
import { HttpProblem } from "./http-io.ts";
import { planTimings, type TimingPlan } from "./pacing.ts";
import type { ServedModel, ServedModels } from "./served-models.ts";

export interface StandinContext {
  provider: ModelProvider;
  models: ServedModels;
  /** Tokens per second to imitate; undefined answers as fast as the provider does. */
  pace?: number;
}

export interface Generated {
  response: ChatResponse;
  plan: TimingPlan;
  /** performance.now() when the request started being served. */
  started: number;
}

const STAGES: readonly ModelStage[] = ["router", "planner", "react", "fallback", "solver", "jsonl", "native"];

/** The stage the client named; without one: chat with tools is `native`, other chat `jsonl`, text `planner`. */
export function stageOf(headers: IncomingHttpHeaders, kind: "complete" | "chat", hasTools: boolean): ModelStage {
  const header = headers[STAGE_HEADER];
  const named = Array.isArray(header) ? header[0] : header;
  if (named && (STAGES as readonly string[]).includes(named)) return named as ModelStage;
  if (kind === "chat") return hasTools ? "native" : "jsonl";
  return "planner";
}

/** The model by name, or the 400/404 Ollama answers with. */
export function knownModel(context: StandinContext, name: unknown): ServedModel & { name: string } {
  if (typeof name !== "string" || name.trim() === "") throw new HttpProblem(400, "model is required");
  const model = context.models.find(name);
  if (!model) throw new HttpProblem(404, `model "${name}" not found, try pulling it first`);
  return { ...model, name };
}

/** A model about to generate: known, able to take the request's tools, and marked as running. */
export function servedModel(
  context: StandinContext,
  name: unknown,
  wantsTools: boolean,
): ServedModel & { name: string } {
  const model = knownModel(context, name);
  if (wantsTools && !context.models.supportsTools(model)) {
    throw new HttpProblem(400, `registry.ollama.ai/library/${name} does not support tools`);
  }
  context.models.touch(model.name);
  return model;
}

/** Leaves `options` out of a request when the client sent none. */
export function withOptions(options: GenerationOptions): { options?: GenerationOptions } {
  return Object.keys(options).length > 0 ? { options } : {};
}

/** The answer stopped at the client's token limit (done_reason / finish_reason "length"). */
export function hitLength(generated: Generated, options: GenerationOptions): boolean {
  const limit = options.maxTokens;
  return limit !== undefined && generated.response.usage.completionTokens >= limit;
}

export async function generate(
  context: StandinContext,
  kind: "complete" | "chat",
  request: Omit<CompletionRequest, "signal"> | Omit<ChatRequest, "signal">,
  signal: AbortSignal,
): Promise<Generated> {
  const started = performance.now();
  const response =
    kind === "chat"
      ? await context.provider.chat({ ...(request as ChatRequest), signal })
      : { ...(await context.provider.complete({ ...(request as CompletionRequest), signal })), toolCalls: [] };
  const salt = "messages" in request ? request.messages.length : 0;
  return {
    response: { ...response, toolCalls: withCallIds(response.toolCalls, salt) },
    plan: planTimings(response.usage, performance.now() - started, context.pace),
    started,
  };
}

/** Ids like Ollama's `call_xxxxxxxx`, derived from the call, its position and the conversation length. */
function withCallIds(calls: readonly NativeToolCall[], salt: number): NativeToolCall[] {
  return calls.map((call, index) => {
    if (call.id) return call;
    const digest = createHash("sha256")
      .update(`${salt}|${index}|${call.name}|${JSON.stringify(call.arguments)}`)
      .digest("hex");
    return { ...call, id: `call_${digest.slice(0, 8)}` };
  });
}
