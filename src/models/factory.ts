/**
 * A provider entry (src/models/entry.ts) → a ModelProvider, wrapped for record or replay when asked.
 * The bench calls this once per model and keeps the provider for the whole run.
 */

import { InputError } from "../errors.ts";
import { RecordingProvider, ReplayProvider } from "./cassette.ts";
import type { ProviderEntry } from "./entry.ts";
import type { RetryPolicy } from "./http.ts";
import { OllamaProvider } from "./ollama.ts";
import { OpenAIProvider } from "./openai.ts";
import { createPluginProvider } from "./provider-registry.ts";
import { createSimProvider, type SimGoldItem } from "./sim/index.ts";
import type { ModelProvider } from "./types.ts";

export interface ProviderDeps {
  /** The dataset's gold labels: the simulator answers from them. */
  gold?: readonly SimGoldItem[];
  seed?: number;
  /** Append every request and answer to this cassette (`--record FILE`). */
  record?: string;
  /** Answer from this cassette only (`--replay FILE`); nothing reaches a server. */
  replay?: string;
}

/** The id a provider for `entry` has — what cassettes are keyed under, so record and replay agree. */
export function providerId(entry: ProviderEntry): string {
  if (entry.provider === "sim") return `sim:${entry.profile}`;
  return `${entry.provider === "plugin" ? entry.plugin : entry.provider}:${entry.model}`;
}

export function createProvider(entry: ProviderEntry, deps: ProviderDeps = {}): ModelProvider {
  if (deps.record && deps.replay) {
    throw new InputError("RECORD_AND_REPLAY", "--record and --replay cannot be used together: pick one");
  }
  if (deps.replay) return new ReplayProvider(deps.replay, providerId(entry));
  const provider = liveProvider(entry, deps);
  return deps.record ? new RecordingProvider(provider, deps.record, providerId(entry)) : provider;
}

function liveProvider(entry: ProviderEntry, deps: ProviderDeps): ModelProvider {
  switch (entry.provider) {
    case "ollama":
      return new OllamaProvider({
        model: entry.model,
        host: entry.host,
        options: entry.options,
        timeoutMs: entry.timeoutMs,
        think: entry.think,
        ...retryOf(entry),
      });
    case "openai":
      return new OpenAIProvider({
        model: entry.model,
        baseUrl: entry.baseUrl,
        apiKeyEnv: entry.apiKeyEnv,
        allowRemote: entry.allowRemote,
        options: entry.options,
        timeoutMs: entry.timeoutMs,
        source: entry.source,
        contextWindow: entry.contextWindow,
        ...retryOf(entry),
      });
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

function retryOf(entry: ProviderEntry): { retry?: RetryPolicy } {
  return entry.retryMs ? { retry: { delaysMs: entry.retryMs } } : {};
}
