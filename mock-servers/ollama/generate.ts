/**
 * One generation, whichever API asked for it: the model checked against what is served (404, 400 for
 * tools or thinking it lacks), the prompt fitted to the window, a slot from the scheduler (the one whose
 * prompt cache shares the most with it; queue, 503), the model loaded with the request's window (a cold
 * start, again whenever the window changes, emptying the slots' caches), the stage (hinted or inferred),
 * the provider asked, thinking written, the output cut at its limit, tool calls given ids, the timing
 * plan the answer will be paced by (only the prompt tokens the cache did not hold are evaluated), and
 * the request counted in the statistics.
 */

import { createHash } from "node:crypto";
import { sharedPrefixChars } from "../../src/models/prompt-size.ts";
import type { ModelProvider, NativeToolCall } from "../../src/models/types.ts";
import type { StandinBehaviour } from "./behaviour.ts";
import { fitToWindow, promptTokensOf, windowOf } from "./context-window.ts";
import { type Exchange, HttpProblem } from "./http-io.ts";
import { asProviderCounted, cutOutput, measureOutput, type Output } from "./output.ts";
import { planTimings, type Rates, type TimingPlan } from "./pacing.ts";
import { cachedAfterAnswer, renderStandinPrompt, toolCallsLine } from "./render.ts";
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
import type { StandinStats } from "./stats.ts";
import { thinkingFor } from "./thinking.ts";

export interface StandinContext {
  provider: ModelProvider;
  models: ServedModels;
  behaviour: StandinBehaviour;
  scheduler: Scheduler;
  /** Started in real mode (reported by /api/version). */
  real: boolean;
  /** Speeds to imitate; undefined answers as fast as the provider does. */
  rates?: Rates;
  stats: StandinStats;
}

export interface Generated {
  output: Output;
  /** `prompt_eval_count` / `prompt_tokens`: the whole prompt, cached part included. */
  promptTokens: number;
  /** Of those, the tokens evaluated: the slot's cache held the rest. */
  evaluatedTokens: number;
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
    context.scheduler.forget(model.name);
    return responder.loaded("unload");
  }
  const window = windowOf(request.options.numCtx, context.behaviour.defaultNumCtx, contextLengthOf(model));
  const fitted = context.behaviour.truncate && !isEmpty(request.input) ? fitToWindow(request.input, window) : undefined;
  const seen = fitted?.input ?? request.input;
  const prompt = renderStandinPrompt(seen);
  await context.scheduler.run(model.name, prompt, exchange.signal, async (slot) => {
    const started = performance.now();
    const loaded = context.models.isLoaded(model.name, window);
    if (!loaded) context.scheduler.forget(model.name);
    const loadMs = await context.scheduler.load(`${model.name}@${window}`, loaded, exchange.signal);
    context.models.touch(model.name, window, request.keepAliveMs);
    if (isEmpty(request.input)) {
      responder.loaded("load");
      // a load request generates nothing: its slot time and load count, not a request
      context.stats.loaded(slot, { busyMs: performance.now() - started, loadMs });
      return;
    }
    const cachedChars = sharedPrefixChars(slot.cached, prompt);
    const generated = await generate(context, exchange, model, request, {
      seen,
      prompt,
      fittedTokens: fitted?.promptTokens,
      cachedChars,
      started,
      loadMs,
    });
    const { output } = generated;
    slot.cached = cachedAfterAnswer(seen, prompt, output.thinking + output.text + toolCallsLine(output.toolCalls));
    await responder.answered(generated);
    context.stats.served(slot, {
      promptTokens: generated.promptTokens,
      evaluatedTokens: generated.evaluatedTokens,
      generatedTokens: output.tokens,
      busyMs: performance.now() - started,
      loadMs,
    });
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

/** What the model sees after the window's cut, and where the request stands before it is answered. */
interface Prepared {
  seen: StandinInput;
  /** `seen` rendered, as the cache holds it. */
  prompt: string;
  /** `prompt_eval_count` when the prompt was fitted to the window. */
  fittedTokens: number | undefined;
  /** Characters of the prompt the slot's cache holds. */
  cachedChars: number;
  started: number;
  loadMs: number;
}

/** The provider's answer, the thinking, the output cut, the timings. */
async function generate(
  context: StandinContext,
  { request: http, signal }: Exchange,
  model: ServedModel,
  request: StandinRequest,
  { seen, prompt, fittedTokens, cachedChars, started, loadMs }: Prepared,
): Promise<Generated> {
  const stage = stageOf(http.headers, request.input);
  if (seen.kind === "chat" && needsUserQuery(model) && !seen.messages.some((message) => message.role === "user")) {
    throw new HttpProblem(500, "no user query found in messages");
  }
  const asked = performance.now();
  const options = Object.keys(request.options).length > 0 ? { options: request.options } : {};
  // honoured as a grammar would (the simulator answers in the schema), unless the stand-in ignores it
  const format = request.format && !context.behaviour.ignoreFormat ? { format: request.format } : {};
  const response =
    seen.kind === "chat"
      ? await context.provider.chat({ stage, messages: seen.messages, ...tools(seen), ...format, ...options, signal })
      : { ...(await context.provider.complete({ stage, prompt: seen.prompt, ...options, signal })), toolCalls: [] };
  const answeredAt = performance.now();
  const thinking = model.thinking && request.think !== false ? thinkingFor(stage, seen) : "";
  const calls = withCallIds(response.toolCalls, seen.kind === "chat" ? seen.messages.length : 0);
  const measuredOutput = measureOutput(thinking, response.text, calls);
  const limit = request.options.maxTokens;
  const output = context.behaviour.cutOutput
    ? cutOutput(measuredOutput, limit)
    : asProviderCounted(measuredOutput, response.usage.completionTokens, limit);
  // a server with a tokenizer endpoint reports what its tokenizer counts (else: the provider's own count)
  const promptTokens =
    fittedTokens ?? (context.behaviour.tokenizer === "none" ? response.usage.promptTokens : promptTokensOf(seen));
  // the cached share of the prompt's characters, in the count reported (the provider's, when not fitted);
  // a fully cached prompt still has its last token evaluated, as llama.cpp does
  const cachedTokens = Math.floor((promptTokens * cachedChars) / Math.max(1, prompt.length));
  const evaluatedTokens = Math.max(Math.min(promptTokens, 1), promptTokens - cachedTokens);
  const measured = { loadMs, promptEvalMs: asked - started - loadMs, evalMs: answeredAt - asked };
  const plan = planTimings({ evaluatedTokens, completionTokens: output.tokens }, measured, context.rates);
  return { output, promptTokens, evaluatedTokens, plan, started };
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
