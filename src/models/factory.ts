/**
 * A provider entry (src/models/entry.ts) → a ModelProvider: one per base URL when the entry lists
 * several (url-pool.ts), its answers noting the prompt prefix shared with the server's previous request
 * (prefix-tracker.ts), behind the request cache when one is given (caching-provider.ts), wrapped for
 * record or replay when asked. The bench calls this once per model and keeps the provider for the run.
 */

import { InputError } from "../errors.ts";
import { CachingProvider, type ModelIdentity } from "./caching-provider.ts";
import { RecordingProvider, ReplayProvider } from "./cassette.ts";
import type { OllamaProviderEntry, OpenAIProviderEntry, ProviderEntry } from "./entry.ts";
import type { RetryPolicy } from "./http.ts";
import { OllamaProvider, resolveOllamaHost } from "./ollama.ts";
import { OpenAIProvider, resolveOpenAIBaseUrl } from "./openai.ts";
import { type PrefixTracker, trackPrefixes } from "./prefix-tracker.ts";
import { isSimulator } from "./provenance.ts";
import { createPluginProvider } from "./provider-registry.ts";
import type { RequestCache } from "./request-cache.ts";
import { createSimProvider, type SimGoldItem } from "./sim/index.ts";
import type { ModelProvider } from "./types.ts";
import { UrlPoolProvider } from "./url-pool.ts";

export interface ProviderDeps {
  /** The dataset's gold labels: the simulator answers from them. */
  gold?: readonly SimGoldItem[];
  /** The simulator's seed; a real model samples with it unless its entry sets `seed` (seededEntry). */
  seed?: number;
  /** Append every request and answer to this cassette (`--record FILE`). */
  record?: string;
  /** Answer from this cassette only (`--replay FILE`); nothing reaches a server. */
  replay?: string;
  /** Answer deterministic requests asked before from this store (not with `replay`). */
  cache?: RequestCache;
  /**
   * Cache the simulator too. Off by default: a simulator answer costs microseconds, so a store lookup
   * would only slow it, and the simulator's outcomes must not depend on what an earlier run left behind.
   */
  cacheSimulator?: boolean;
  /** Note on each answer the prompt prefix it shared with the previous request to the server (below the cache: only requests sent). */
  prefixTracker?: PrefixTracker;
}

/** The id a provider for `entry` has — what cassettes are keyed under, so record and replay agree. */
export function providerId(entry: ProviderEntry): string {
  if (isSimulator(entry)) return `sim:${entry.profile}`;
  return `${entry.provider === "plugin" ? entry.plugin : entry.provider}:${entry.model}`;
}

export function createProvider(entry: ProviderEntry, deps: ProviderDeps = {}): ModelProvider {
  if (deps.record && deps.replay) {
    throw new InputError("RECORD_AND_REPLAY", "--record and --replay cannot be used together: pick one");
  }
  if (deps.replay) return new ReplayProvider(deps.replay, providerId(entry));
  const seeded = seededEntry(entry, deps.seed);
  const server = liveProvider(seeded, deps);
  const live = deps.prefixTracker ? trackPrefixes(server, deps.prefixTracker) : server;
  const cached =
    deps.cache && (!isSimulator(entry) || deps.cacheSimulator)
      ? new CachingProvider(live, modelIdentity(seeded), deps.cache)
      : live;
  return deps.record ? new RecordingProvider(cached, deps.record, providerId(entry)) : cached;
}

/**
 * A real model samples with the run's seed (which moves with the repeat, as the simulator's does), so a
 * run can be repeated and every request, the solver's warm ones included, is deterministic and can be
 * cached. An entry's own `seed` wins.
 */
export function seededEntry(entry: ProviderEntry, seed: number | undefined): ProviderEntry {
  if (isSimulator(entry) || seed === undefined || entry.options.seed !== undefined) return entry;
  return { ...entry, options: { ...entry.options, seed } };
}

/**
 * What the cache keys a model by, besides the digest its server reports: everything that can change an
 * answer or its validity verdict (the window and tokenizer decide `context_overflow`; `numCtx` unset is
 * Ollama's `auto` sizing, and is keyed as such).
 */
export function modelIdentity(entry: ProviderEntry): ModelIdentity {
  const base = { name: entry.name, provider: entry.provider, model: entry.model, options: entry.options };
  switch (entry.provider) {
    case "ollama":
      return {
        ...base,
        baseUrls: baseUrlsOf(entry),
        settings: { think: entry.think, numCtx: entry.options.numCtx ?? "auto" },
      };
    case "openai":
      return {
        ...base,
        baseUrls: baseUrlsOf(entry),
        settings: { contextWindow: entry.contextWindow ?? "server", tokenizer: entry.tokenizer ?? "auto" },
      };
    case "sim":
      return { ...base, baseUrls: [] };
    case "plugin":
      return { ...base, provider: entry.plugin, baseUrls: [], settings: entry.settings };
  }
}

function baseUrlsOf(entry: OllamaProviderEntry | OpenAIProviderEntry): string[] {
  if (entry.baseUrls) return entry.baseUrls.map((pooled) => pooled.url);
  return [entry.provider === "ollama" ? resolveOllamaHost(entry.host) : resolveOpenAIBaseUrl(entry.baseUrl)];
}

function liveProvider(entry: ProviderEntry, deps: ProviderDeps): ModelProvider {
  switch (entry.provider) {
    case "ollama":
    case "openai":
      if (!entry.baseUrls) return serverProvider(entry);
      return new UrlPoolProvider(
        entry.baseUrls.map(({ url, concurrency }) => ({
          url,
          concurrency,
          provider: serverProvider(entry.provider === "ollama" ? { ...entry, host: url } : { ...entry, baseUrl: url }),
        })),
      );
    case "sim":
      if (!deps.gold) {
        throw new InputError(
          "SIM_NEEDS_GOLD",
          `${entry.source}: the simulator answers from the dataset's gold labels; pass the loaded dataset`,
        );
      }
      return createSimProvider({ profile: entry.profile, gold: deps.gold, seed: deps.seed });
    case "plugin":
      return createPluginProvider(providerId(entry), entry);
  }
}

/** The provider of one server (`host` / `baseUrl`). */
function serverProvider(entry: OllamaProviderEntry | OpenAIProviderEntry): ModelProvider {
  if (entry.provider === "ollama") {
    return new OllamaProvider({
      model: entry.model,
      host: entry.host,
      options: entry.options,
      timeoutMs: entry.timeoutMs,
      think: entry.think,
      ...retryOf(entry),
    });
  }
  return new OpenAIProvider({
    model: entry.model,
    baseUrl: entry.baseUrl,
    apiKeyEnv: entry.apiKeyEnv,
    allowRemote: entry.allowRemote,
    options: entry.options,
    timeoutMs: entry.timeoutMs,
    source: entry.source,
    contextWindow: entry.contextWindow,
    tokenizer: entry.tokenizer,
    ...retryOf(entry),
  });
}

function retryOf(entry: ProviderEntry): { retry?: RetryPolicy } {
  return entry.retryMs ? { retry: { delaysMs: entry.retryMs } } : {};
}
