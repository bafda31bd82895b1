/**
 * One generation, whichever API asked for it: the model checked against what is served (404, 400 for
 * tools or thinking it lacks), a slot from the scheduler (queue, 503, cold start), the stage (hinted or
 * inferred), the prompt fitted to the window, the provider asked, thinking written, the output cut at
 * its limit, tool calls given ids, and the timing plan the answer will be paced by.
 */

import { createHash } from "node:crypto";
import type { ModelProvider, NativeToolCall } from "../../src/models/types.ts";
import type { StandinBehaviour } from "./behaviour.ts";
import { fitToWindow, windowOf } from "./context-window.ts";
import { type Exchange, HttpProblem } from "./http-io.ts";
import { cutOutput, measureOutput, type Output } from "./output.ts";
import { planTimings, type TimingPlan } from "./pacing.ts";
import type { StandinInput, StandinRequest } from "./request.ts";
import type { Scheduler } from "./scheduler.ts";
import { contextLengthOf, type ServedModel, type ServedModels, supportsTools } from "./served-models.ts";
import { stageOf } from "./stage.ts";
import { thinkingFor } from "./thinking.ts";
import { estimateTokens } from "./tokens.ts";

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
  /** The input was empty: the model was only loaded (Ollama's done_reason "load"). */
  loaded(): void;
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
  { request: http, signal }: Exchange,
  request: StandinRequest,
  responder: Responder,
): Promise<void> {
  const model = knownModel(context, request.model);
  const { input } = request;
  if (input.kind === "chat" && input.tools && !supportsTools(model)) {
    throw new HttpProblem(400, `registry.ollama.ai/library/${model.name} does not support tools`);
  }
  if (request.think === true && !model.thinking) {
    throw new HttpProblem(400, `"${model.name}" does not support thinking`);
  }
  await context.scheduler.run(model.name, signal, async () => {
    const started = performance.now();
    const loadMs = await context.scheduler.load(model.name, context.models.isLoaded(model.name), signal);
    context.models.touch(model.name, request.keepAliveMs);
    if (isEmpty(input)) return responder.loaded();
    const stage = stageOf(http.headers, input);
    const { behaviour } = context;
    const window = behaviour.truncate
      ? windowOf(request.options.numCtx, behaviour.defaultNumCtx, contextLengthOf(model))
      : undefined;
    const fitted = window === undefined ? undefined : fitToWindow(input, window);
    const seen = fitted?.input ?? input;
    const asked = performance.now();
    const options = Object.keys(request.options).length > 0 ? { options: request.options } : {};
    const response =
      seen.kind === "chat"
        ? await context.provider.chat({ stage, messages: seen.messages, ...tools(seen), ...options, signal })
        : { ...(await context.provider.complete({ stage, prompt: seen.prompt, ...options, signal })), toolCalls: [] };
    const answeredAt = performance.now();
    const thinking = model.thinking && request.think !== false ? thinkingFor(stage, seen) : "";
    const calls = withCallIds(response.toolCalls, seen.kind === "chat" ? seen.messages.length : 0);
    const limit = request.options.maxTokens;
    const output = behaviour.cutOutput
      ? cutOutput(measureOutput(thinking, response.text, calls), limit)
      : {
          // As the provider counted it; "length" when it reached the limit, whatever it returned.
          ...measureOutput(thinking, response.text, calls),
          tokens: response.usage.completionTokens + estimateTokens(thinking),
          reason:
            limit !== undefined && response.usage.completionTokens >= limit ? ("length" as const) : ("stop" as const),
        };
    const promptTokens = fitted?.promptTokens ?? response.usage.promptTokens;
    const measured = { loadMs, promptEvalMs: asked - started - loadMs, evalMs: answeredAt - asked };
    const plan = planTimings({ promptTokens, completionTokens: output.tokens }, measured, context.pace);
    await responder.answered({ output, promptTokens, plan, started });
  });
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
