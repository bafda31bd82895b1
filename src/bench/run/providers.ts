/**
 * The run's model providers: one per model and repeat (the simulator's seed moves with the repeat), made
 * on first use. A model that a server answers has one prefix tracker for all its repeats, so each call's
 * record says what it shared with the previous request to that server.
 */

import { type ModelEntry, type ModelsConfig, resolveModel } from "../../config/models-yaml.ts";
import { isSimulator, provenanceOf } from "../../models/decide-provenance.ts";
import { createProvider } from "../../models/factory.ts";
import { PrefixTracker } from "../../models/prefix-tracker.ts";
import { isOllamaEntry } from "../../models/providers/ollama.ts";
import { isOpenAIEntry } from "../../models/providers/openai.ts";
import type { RequestCache } from "../../models/request-cache.ts";
import type { SimGoldItem } from "../../models/sim/gold.ts";
import type { ModelProvider } from "../../models/types.ts";
import { conversationGold } from "../conversation/gold.ts";
import type { ConversationItem, DatasetItem } from "../dataset/types.ts";
import { multiTurnDatasetOf } from "./bfcl-multi-turn-environment.ts";
import type { ModelOutageWatch } from "./model-outage.ts";

export interface ProviderRequest {
  seed: number;
  record?: string;
  replay?: string;
  /** The run's session (0 the run, 1 its first resume…), written with each cassette line recorded. */
  session?: number;
}

/** The run's model entries, with `--num-ctx N` over each entry's window (the highest precedence). */
export function resolveEntries(models: ModelsConfig, request: { models: string[]; numCtx?: number }): ModelEntry[] {
  return request.models.map((name) => {
    const entry = resolveModel(models, name);
    return request.numCtx === undefined ? entry : { ...entry, options: { ...entry.options, numCtx: request.numCtx } };
  });
}

/**
 * Queries in flight a run of real models gets by default: one per server slot of its largest pool
 * (`base_urls:` with their concurrency), else one, so a single server's latencies stay honest.
 */
export function serverSlots(entries: readonly ModelEntry[]): number {
  const slots = entries.map((entry) =>
    (isOllamaEntry(entry) || isOpenAIEntry(entry)) && entry.baseUrls
      ? entry.baseUrls.reduce((sum, pooled) => sum + pooled.concurrency, 0)
      : 1,
  );
  return Math.max(1, ...slots);
}

/** What the simulator answers from: the items, or each conversation's turns (conversation/gold.ts). */
export function runGold(run: {
  items: readonly DatasetItem[];
  conversations?: readonly ConversationItem[];
}): SimGoldItem[] {
  return run.conversations ? run.conversations.flatMap(conversationGold) : [...run.items];
}

/** A task's own gold, for a simulator that must know one item's labels only. */
export type ItemGold = (itemId: string) => SimGoldItem[];

/**
 * BFCL multi-turn: each entry's own turns, since BFCL's categories share turn texts with other ground
 * truth (miss_func's fixed prompt; base questions again in long_context). Undefined for other datasets.
 */
export function itemGold(run: {
  request: { dataset: readonly string[] };
  conversations?: readonly ConversationItem[];
}): ItemGold | undefined {
  const dataset = multiTurnDatasetOf(run.request.dataset);
  if (!dataset || !run.conversations) return undefined;
  const byId = new Map(run.conversations.map((conversation) => [conversation.id, conversation]));
  return (itemId) => dataset.goldOf(byId.get(itemId)!);
}

export function providerCache(
  entries: readonly ModelEntry[],
  gold: readonly SimGoldItem[],
  request: ProviderRequest,
  outage: ModelOutageWatch,
  /** The request cache (real models only; the main thread's, never a worker's). */
  cache?: RequestCache,
  /** Each task's own gold for the simulator (a provider per task, never kept). */
  goldOfItem?: ItemGold,
): (model: string, repeat: number, itemId?: string) => ModelProvider {
  const made = new Map<string, ModelProvider>();
  const trackers = new Map<string, PrefixTracker>();
  return (model, repeat, itemId) => {
    if (goldOfItem && itemId !== undefined) {
      const entry = entries.find((candidate) => candidate.name === model)!;
      if (isSimulator(entry))
        return outage.watch(createProvider(entry, { gold: goldOfItem(itemId), seed: request.seed + repeat }));
    }
    const key = `${model}#${repeat}`;
    let provider = made.get(key);
    if (!provider) {
      const entry = entries.find((candidate) => candidate.name === model)!;
      // the simulator has no server cache, and a replay sends nothing
      const tracked = provenanceOf(entry, request).kind === "live";
      const tracker = trackers.get(model) ?? new PrefixTracker();
      if (tracked) trackers.set(model, tracker);
      provider = outage.watch(
        createProvider(entry, {
          gold,
          seed: request.seed + repeat,
          record: request.record,
          session: request.session,
          replay: request.replay,
          cache,
          ...(tracked ? { prefixTracker: tracker } : {}),
        }),
      );
      made.set(key, provider);
    }
    return provider;
  };
}
