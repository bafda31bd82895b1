/**
 * The run's model providers: one per model and repeat (the simulator's seed moves with the repeat), made
 * on first use. A model that a server answers has one prefix tracker for all its repeats, so each call's
 * record says what it shared with the previous request to that server.
 */
import { type ModelEntry, type ModelsConfig, resolveModel } from "../../config/models-yaml.ts";
import { createProvider } from "../../models/factory.ts";
import { PrefixTracker, trackPrefixes } from "../../models/prefix-tracker.ts";
import type { ModelProvider } from "../../models/types.ts";
import type { DatasetItem } from "../dataset/types.ts";
import type { ModelOutageWatch } from "./model-outage.ts";

export interface ProviderRequest {
  seed: number;
  record?: string;
  replay?: string;
}

/** The run's model entries, with `--num-ctx N` over each entry's window (the highest precedence). */
export function resolveEntries(models: ModelsConfig, request: { models: string[]; numCtx?: number }): ModelEntry[] {
  return request.models.map((name) => {
    const entry = resolveModel(models, name);
    return request.numCtx === undefined ? entry : { ...entry, options: { ...entry.options, numCtx: request.numCtx } };
  });
}

export function providerCache(
  entries: readonly ModelEntry[],
  items: readonly DatasetItem[],
  request: ProviderRequest,
  outage: ModelOutageWatch,
): (model: string, repeat: number) => ModelProvider {
  const made = new Map<string, ModelProvider>();
  const trackers = new Map<string, PrefixTracker>();
  return (model, repeat) => {
    const key = `${model}#${repeat}`;
    let provider = made.get(key);
    if (!provider) {
      const entry = entries.find((candidate) => candidate.name === model)!;
      provider = createProvider(entry, {
        gold: [...items],
        seed: request.seed + repeat,
        record: request.record,
        replay: request.replay,
      });
      // the simulator has no server cache, and a replay sends nothing
      if (entry.provider !== "sim" && !request.replay) {
        const tracker = trackers.get(model) ?? new PrefixTracker();
        trackers.set(model, tracker);
        provider = trackPrefixes(provider, tracker);
      }
      provider = outage.watch(provider);
      made.set(key, provider);
    }
    return provider;
  };
}
