/**
 * `bench … --estimate`: what a run will cost before any model is asked. A dry pass (dry-pass.ts) gives
 * every model request of the matrix in the run's order; the request cache says which it already holds
 * (and an identical request is sent once per run); the rest are what the server will be sent. Their
 * prompts are compared as the server's prompt cache compares them (the prefix shared with the previous
 * request to the model, prompt-text.ts), so only the uncached part is counted as evaluated. One short
 * timed request measures the server's speed (server-speed.ts); the ETA is the evaluation and generation
 * at that speed, the round trips, one load, and the harness's own work (the dry pass's wall time).
 *
 * Simulated answers stand in for the model's, so a real model's counts are an estimate; a `sim:`
 * model's are exact (no timed request: the simulator answers at once).
 */
import { loadModelsConfig } from "../../config/models-yaml.ts";
import { createProvider } from "../../models/factory.ts";
import {
  cachedAfter,
  estimateTokens,
  type PromptInput,
  renderPrompt,
  sharedPrefixChars,
  wholeTokens,
} from "../../models/prompt-text.ts";
import { type BenchOptions, resolveWork, type Work } from "./bench.ts";
import { type DryPass, type DryRequest, dryPass } from "./dry-pass.ts";
import { measureServerSpeed, type ServerSpeed } from "./server-speed.ts";

/**
 * The request cache as the estimate asks it (the seam for item 1 of issue 22): the key a request is
 * cached under (undefined: not cacheable, e.g. not deterministic), and whether the cache holds a key.
 */
export interface RequestCacheView {
  keyOf(model: string, input: PromptInput, request: DryRequest): string | undefined;
  holds(key: string): boolean;
}

/** No cache: every request is sent. */
export const NO_REQUEST_CACHE: RequestCacheView = { keyOf: () => undefined, holds: () => false };

export interface ModelEstimate {
  model: string;
  /** Model calls the run will record, and their tokens (the simulator's counts, as records report them). */
  modelCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** Calls the request cache already holds: answered without the server. */
  cached: number;
  /** Calls repeating an identical earlier request of the run: sent once, answered from the cache after. */
  repeated: number;
  /** Requests the server will be sent, their prompt tokens (4 characters each) and output tokens. */
  toSend: number;
  sentPromptTokens: number;
  /** Of the prompt tokens sent, those outside the prefix shared with the previous request (the server evaluates them). */
  evaluatedPromptTokens: number;
  sentCompletionTokens: number;
  /** Real servers: the measured speed, and the model time it gives. */
  speed?: ServerSpeed;
  modelMs?: number;
}

export interface BenchEstimate {
  tasks: number;
  models: ModelEstimate[];
  /** The harness's own work (the dry pass's wall time). */
  harnessMs: number;
  /** Model time of every real model plus the harness's work; undefined when no model has a measured speed. */
  etaMs?: number;
  /** Per task: its share of the ETA (the progress bar's model), in ms. */
  taskMs: Record<string, number>;
}

export interface EstimateOptions {
  cache?: RequestCacheView;
  /** The server's speed per model (default: one timed request to each real model's server; none for the simulator). */
  measure?: (model: string) => Promise<ServerSpeed | undefined>;
}

/** The estimate of what `runBench(bench)` would run (a resume: what it has left). */
export function estimateRun(bench: BenchOptions, options: EstimateOptions = {}): Promise<BenchEstimate> {
  return estimateBench(resolveWork(bench, loadModelsConfig(bench.modelsFile)), options);
}

export async function estimateBench(work: Work, options: EstimateOptions = {}): Promise<BenchEstimate> {
  const pass = await dryPass(work);
  const cache = options.cache ?? NO_REQUEST_CACHE;
  const measure = options.measure ?? ((model: string) => measureModel(work, model));
  const models: ModelEstimate[] = [];
  const taskMs: Record<string, number> = {};
  let modelMs = 0;
  for (const entry of work.entries) {
    const requests = pass.requests.filter((request) => request.model === entry.name);
    const speed = await measure(entry.name);
    const estimate = estimateModel(entry.name, requests, cache, speed, taskMs);
    models.push(estimate);
    modelMs += estimate.modelMs ?? 0;
  }
  const measured = models.some((model) => model.speed);
  spreadHarnessTime(pass, work, taskMs);
  return {
    tasks: work.todo.length,
    models,
    harnessMs: pass.wallMs,
    ...(measured ? { etaMs: modelMs + pass.wallMs } : {}),
    taskMs,
  };
}

function estimateModel(
  model: string,
  requests: readonly DryRequest[],
  cache: RequestCacheView,
  speed: ServerSpeed | undefined,
  taskMs: Record<string, number>,
): ModelEstimate {
  const estimate: ModelEstimate = {
    model,
    modelCalls: requests.length,
    promptTokens: 0,
    completionTokens: 0,
    cached: 0,
    repeated: 0,
    toSend: 0,
    sentPromptTokens: 0,
    evaluatedPromptTokens: 0,
    sentCompletionTokens: 0,
  };
  const sent = new Set<string>();
  // what the server's cache holds after the previous request sent
  let last = "";
  let modelMs = speed ? speed.loadMs : 0;
  for (const request of requests) {
    estimate.promptTokens += request.promptTokens;
    estimate.completionTokens += request.completionTokens;
    const key = cache.keyOf(model, request.input, request);
    if (key !== undefined && cache.holds(key)) {
      estimate.cached += 1;
      continue;
    }
    if (key !== undefined && sent.has(key)) {
      estimate.repeated += 1;
      continue;
    }
    if (key !== undefined) sent.add(key);
    const prompt = renderPrompt(request.input);
    const promptTokens = estimateTokens(prompt);
    const evaluated = Math.max(Math.min(promptTokens, 1), promptTokens - wholeTokens(sharedPrefixChars(last, prompt)));
    const completion = estimateTokens(request.output);
    last = cachedAfter(request.input, prompt, request.output);
    estimate.toSend += 1;
    estimate.sentPromptTokens += promptTokens;
    estimate.evaluatedPromptTokens += evaluated;
    estimate.sentCompletionTokens += completion;
    if (speed) {
      const ms = (evaluated / speed.promptTokensPerSec + completion / speed.genTokensPerSec) * 1000 + speed.overheadMs;
      modelMs += ms;
      taskMs[request.taskKey] = (taskMs[request.taskKey] ?? 0) + ms;
    }
  }
  return speed ? { ...estimate, speed, modelMs } : estimate;
}

/** The harness's work, spread evenly over the tasks. */
function spreadHarnessTime(pass: DryPass, work: Work, taskMs: Record<string, number>): void {
  const each = pass.wallMs / Math.max(1, work.todo.length);
  for (const task of work.todo) taskMs[task.key] = (taskMs[task.key] ?? 0) + each;
}

/** One timed request to the model's server, through a provider of its own (no cache, no tracking). */
async function measureModel(work: Work, model: string): Promise<ServerSpeed | undefined> {
  const entry = work.entries.find((candidate) => candidate.name === model);
  // the simulator answers at once; a replay asks no server
  if (!entry || entry.provider === "sim" || work.request.replay) return undefined;
  return measureServerSpeed(createProvider(entry, { gold: work.items, seed: work.request.seed }));
}
