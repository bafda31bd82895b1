/**
 * A provider entry (src/models/entry.ts) → a ModelProvider, made by its provider's definition
 * (provider-registry.ts), its answers noting the prompt prefix shared with the server's previous request
 * (prefix-tracker.ts), behind the request cache when one is given (caching-provider.ts), wrapped for
 * record or replay when asked. The bench calls this once per model and keeps the provider for the run.
 */

import { InputError } from "../errors.ts";
import { CachingProvider, type ModelIdentity } from "./caching-provider.ts";
import { RecordingProvider, ReplayProvider } from "./cassette.ts";
import { isSimulator } from "./decide-provenance.ts";
import type { ProviderEntry } from "./entry.ts";
import { type PrefixTracker, trackPrefixes } from "./prefix-tracker.ts";
import { definitionOf } from "./provider-registry.ts";
import type { CreateDeps } from "./providers/definition.ts";
import type { RequestCache } from "./request-cache.ts";
import type { ModelProvider } from "./types.ts";

/** What making a provider may need: the gold and seed its definition takes, and the run's wrappers. */
export interface ProviderDeps extends CreateDeps {
  /** Append every request and answer to this cassette (`--record FILE`). */
  record?: string;
  /** The bench run's session the cassette's lines belong to (0 the run, 1 its first resume…). */
  session?: number;
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
  return definitionOf(entry).id?.(entry) ?? `${entry.provider}:${entry.model}`;
}

export function createProvider(entry: ProviderEntry, deps: ProviderDeps = {}): ModelProvider {
  if (deps.record && deps.replay) {
    throw new InputError("RECORD_AND_REPLAY", "--record and --replay cannot be used together: pick one");
  }
  if (deps.replay) return new ReplayProvider(deps.replay, providerId(entry));
  const seeded = seededEntry(entry, deps.seed);
  const definition = definitionOf(seeded);
  const server = definition.create(seeded, deps);
  const live = deps.prefixTracker ? trackPrefixes(server, deps.prefixTracker) : server;
  const cached =
    deps.cache && (!isSimulator(entry) || deps.cacheSimulator)
      ? new CachingProvider(live, definition.identity(seeded), deps.cache)
      : live;
  return deps.record ? new RecordingProvider(cached, deps.record, providerId(entry), undefined, deps.session) : cached;
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
 * answer or its validity verdict (each provider's definition says what; e.g. the window and tokenizer
 * decide `context_overflow`).
 */
export function modelIdentity(entry: ProviderEntry): ModelIdentity {
  return definitionOf(entry).identity(entry);
}
