/**
 * One generation, whichever API asked for it: the model checked against what is served (404, 400 for
 * tools or thinking it lacks), a slot from the scheduler (queue, 503), the model loaded with the
 * request's window (a cold start, again whenever the window changes), the stage (hinted or inferred),
 * the prompt fitted to the window, the provider asked, thinking written, the output cut at
 * its limit, tool calls given ids, and the timing plan the answer will be paced by.
 */

import { createHash } from "node:crypto";
import type { ModelProvider, NativeToolCall } from "../../src/models/types.ts";
import type { StandinBehaviour } from "./behaviour.ts";
import { fitToWindow, windowOf } from "./context-window.ts";
import { type Exchange, HttpProblem } from "./http-io.ts";
import { asProviderCounted, cutOutput, measureOutput, type Output } from "./output.ts";
import { planTimings, type TimingPlan } from "./pacing.ts";
import type { StandinInput, StandinRequest } from "./request.ts";
import type { Scheduler } from "./scheduler.ts";
import {
  contextLengthOf,
  needsUserQuery,
  type ServedModel,
  type ServedModels,
  supportsTools,
} from "./served-models.ts";
import { stageOf } from "./stage.ts";
import { thinkingFor } from "./thinking.ts";

export interface StandinContext {
  provider: ModelProvider;
  models: ServedModels;
  behaviour: StandinBehaviour;
  scheduler: Scheduler;
  /** Started in real mode (reported by /api/version). */
  real: boolean;
  /** Tokens per second to imitate; undefined answers as fast as the provider does. */
  pace?: number;
}

export interface Generated {
  output: Output;
  /** `prompt_eval_count` / `prompt_tokens`. */
  promptTokens: number;
  plan: TimingPlan;
  /** performance.now() when the request got its slot: the plan counts from here. */
  started: number;
}

export interface Responder {
  /** The input was empty: the model was only loaded, or unloaded with keep_alive 0 (Ollama's done_reason). */
  loaded(reason: "load" | "unload"): void;
  answered(generated: Generated): Promise<void>;
}

/** The model by name, or Ollama's 404. */
export function knownModel(context: StandinContext, name: string): ServedModel {
  const model = context.models.find(name);
  if (!model) throw new HttpProblem(404, `model '${name}' not found, try pulling it first`);
  return model;
}

export async function serve(
  context: StandinContext,
  exchange: Exchange,
  request: StandinRequest,
  responder: Responder,
): Promise<void> {
  const model = acceptedModel(context, request);
  if (isEmpty(request.input) && request.keepAliveMs === 0) {
    context.models.unload(model.name);
    return responder.loaded("unload");
  }
  const window = windowOf(request.options.numCtx, context.behaviour.defaultNumCtx, contextLengthOf(model));
  await context.scheduler.run(model.name, exchange.signal, async () => {
    const started = performance.now();
    const loaded = context.models.isLoaded(model.name, window);
    const loadMs = await context.scheduler.load(`${model.name}@${window}`, loaded, exchange.signal);
    context.models.touch(model.name, window, request.keepAliveMs);
    if (isEmpty(request.input)) return responder.loaded("load");
    await responder.answered(await generate(context, exchange, model, request, window, { started, loadMs }));
  });
}

/** The model, able to do what the request asks: else Ollama's 404 or 400. */
function acceptedModel(context: StandinContext, request: StandinRequest): ServedModel {
  const model = knownModel(context, request.model);
  if (request.input.kind === "chat" && request.input.tools && !supportsTools(model)) {
    throw new HttpProblem(400, `registry.ollama.ai/library/${model.name} does not support tools`);
  }
  if (request.think === true && !model.thinking) {
    throw new HttpProblem(400, `"${model.name}" does not support thinking`);
  }
  return model;
}

/** The prompt fitted to the window, the provider's answer, the thinking, the output cut, the timings. */
async function generate(
  context: StandinContext,
  { request: http, signal }: Exchange,
  model: ServedModel,
  request: StandinRequest,
  window: number,
  { started, loadMs }: { started: number; loadMs: number },
): Promise<Generated> {
  const stage = stageOf(http.headers, request.input);
  const fitted = context.behaviour.truncate ? fitToWindow(request.input, window) : undefined;
  const seen = fitted?.input ?? request.input;
  if (seen.kind === "chat" && needsUserQuery(model) && !seen.messages.some((message) => message.role === "user")) {
    throw new HttpProblem(500, "no user query found in messages");
  }
  const asked = performance.now();
  const options = Object.keys(request.options).length > 0 ? { options: request.options } : {};
  const response =
    seen.kind === "chat"
      ? await context.provider.chat({ stage, messages: seen.messages, ...tools(seen), ...options, signal })
      : { ...(await context.provider.complete({ stage, prompt: seen.prompt, ...options, signal })), toolCalls: [] };
  const answeredAt = performance.now();
  const thinking = model.thinking && request.think !== false ? thinkingFor(stage, seen) : "";
  const calls = withCallIds(response.toolCalls, seen.kind === "chat" ? seen.messages.length : 0);
  const measuredOutput = measureOutput(thinking, response.text, calls);
  const limit = request.options.maxTokens;
  const output = context.behaviour.cutOutput
    ? cutOutput(measuredOutput, limit)
    : asProviderCounted(measuredOutput, response.usage.completionTokens, limit);
  const promptTokens = fitted?.promptTokens ?? response.usage.promptTokens;
  const measured = { loadMs, promptEvalMs: asked - started - loadMs, evalMs: answeredAt - asked };
  const plan = planTimings({ promptTokens, completionTokens: output.tokens }, measured, context.pace);
  return { output, promptTokens, plan, started };
}

function isEmpty(input: StandinInput): boolean {
  return input.kind === "complete" ? input.prompt === "" : input.messages.length === 0;
}

function tools(input: Extract<StandinInput, { kind: "chat" }>) {
  return input.tools && input.tools.length > 0 ? { tools: input.tools } : {};
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
