/**
 * `bench … --estimate`: what a run will cost before any model is asked. A dry pass (estimate-requests.ts) gives
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

import { loadModelsConfig, type ModelEntry } from "../../config/models-yaml.ts";
import { isDeterministic, type ModelIdentity, requestHash } from "../../models/caching-provider.ts";
import { isSimulator } from "../../models/decide-provenance.ts";
import { createProvider, modelIdentity, seededEntry } from "../../models/factory.ts";
import { estimateTokens, sharedPrefixChars, wholeTokens } from "../../models/prompt-size.ts";
import { cachedAfter, renderPrompt } from "../../models/prompt-text.ts";
import { type RequestCache, requestCacheAt } from "../../models/request-cache.ts";
import { type BenchOptions, resolveWork, type Work } from "./bench.ts";
import { type DryPass, type DryRequest, dryPass } from "./estimate-requests.ts";
import { measureServerSpeed, type ServerSpeed } from "./server-speed.ts";

/**
 * The request cache as the estimate asks it: the key a request is cached under (undefined: not
 * cacheable, e.g. not deterministic), and whether the cache holds it for the model.
 */
export interface RequestCacheView {
  keyOf(request: DryRequest): string | undefined;
  holds(model: string, key: string): boolean;
}

/** No cache (`--no-cache`, the simulator, a replay): every request is sent. */
const NO_REQUEST_CACHE: RequestCacheView = { keyOf: () => undefined, holds: () => false };

/**
 * The run's request cache (caching-provider.ts): a dry request's key is the one the run's request would
 * have — the model's identity with the repeat's seed, the digest its server reports, the whole request.
 */
function requestCacheView(
  cache: RequestCache,
  entries: readonly ModelEntry[],
  seed: number,
  digests: ReadonlyMap<string, string | undefined>,
): RequestCacheView {
  const identities = new Map<string, ModelIdentity>();
  return {
    keyOf: (request) => {
      const entry = entries.find((candidate) => candidate.name === request.model);
      if (!entry || isSimulator(entry)) return undefined;
      const identityKey = `${request.model}#${request.repeat}`;
      let identity = identities.get(identityKey);
      if (!identity) {
        identity = modelIdentity(seededEntry(entry, seed + request.repeat));
        identities.set(identityKey, identity);
      }
      if (!isDeterministic(identity.options, request.options)) return undefined;
      const options = request.options ? { options: request.options } : {};
      const asked =
        "prompt" in request.input
          ? { stage: "solver" as const, prompt: request.input.prompt, ...options }
          : {
              stage: "solver" as const,
              messages: [...request.input.messages],
              tools: [...(request.input.tools ?? [])],
              ...options,
            };
      const kind = "prompt" in request.input ? "complete" : "chat";
      return requestHash(identity, digests.get(request.model), kind, asked);
    },
    holds: (model, key) => cache.get(model, key) !== undefined,
  };
}

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
  /** The request cache to look the requests up in (default: none: every request is sent). */
  cache?: RequestCache;
  /** The server's speed and the model's digest (default: read from each real model's server; none for the simulator). */
  measure?: (model: string) => Promise<MeasuredModel>;
}

/** What the estimate asks a model's server. */
export interface MeasuredModel {
  speed?: ServerSpeed;
  digest?: string;
}

/** The estimate of what `runBench(bench)` would run (a resume: what it has left), looked up in its cache. */
export async function estimateRun(bench: BenchOptions, options: EstimateOptions = {}): Promise<BenchEstimate> {
  const work = resolveWork(bench, loadModelsConfig(bench.modelsFile));
  const real = !work.entries.every(isSimulator);
  const cacheDir = real && !work.request.replay ? bench.cacheDir : undefined;
  const cache = options.cache ?? (cacheDir ? requestCacheAt(cacheDir) : undefined);
  return estimateBench(work, { ...options, ...(cache ? { cache } : {}) });
}

async function estimateBench(work: Work, options: EstimateOptions = {}): Promise<BenchEstimate> {
  const pass = await dryPass(work);
  const measure = options.measure ?? ((model: string) => measureModel(work, model));
  const measured = new Map<string, MeasuredModel>();
  for (const entry of work.entries) measured.set(entry.name, await measure(entry.name));
  const digests = new Map([...measured].map(([model, { digest }]) => [model, digest]));
  const cache = options.cache
    ? requestCacheView(options.cache, work.entries, work.request.seed, digests)
    : NO_REQUEST_CACHE;
  const models: ModelEstimate[] = [];
  const taskMs: Record<string, number> = {};
  let modelMs = 0;
  for (const entry of work.entries) {
    const requests = pass.requests.filter((request) => request.model === entry.name);
    const estimate = estimateModel(entry.name, requests, cache, measured.get(entry.name)?.speed, taskMs);
    models.push(estimate);
    modelMs += estimate.modelMs ?? 0;
  }
  const timed = models.some((model) => model.speed);
  spreadHarnessTime(pass, work, taskMs);
  return {
    tasks: work.todo.length,
    models,
    harnessMs: pass.wallMs,
    ...(timed ? { etaMs: modelMs + pass.wallMs } : {}),
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
    const key = cache.keyOf(request);
    if (key !== undefined && cache.holds(model, key)) {
      estimate.cached += 1;
      continue;
    }
    if (key !== undefined && sent.has(key)) {
      estimate.repeated += 1;
      continue;
    }
    if (key !== undefined) sent.add(key);
    const prompt = renderPrompt(request.input);
    const promptTokens = estimateTokens.nominal(prompt.length);
    const evaluated = Math.max(Math.min(promptTokens, 1), promptTokens - wholeTokens(sharedPrefixChars(last, prompt)));
    const completion = estimateTokens.nominal(request.output.length);
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

/** The model's digest and one timed request to its server, through a provider of its own (no cache, no tracking). */
async function measureModel(work: Work, model: string): Promise<MeasuredModel> {
  const entry = work.entries.find((candidate) => candidate.name === model);
  // the simulator answers at once; a replay asks no server
  if (!entry || isSimulator(entry) || work.request.replay) return {};
  const provider = createProvider(entry, { gold: work.items, seed: work.request.seed });
  const digest = (await provider.describe?.())?.digest;
  return { speed: await measureServerSpeed(provider), ...(digest ? { digest } : {}) };
}
