/**
 * What a provider is made from: one model of models.yaml, or a model name resolved by its naming rule
 * (src/config/models-yaml.ts reads both). Only the provider's side of an entry is here, and only its
 * common part: each provider's own keys are in its definition (src/models/providers/). The agent axes a
 * model entry also carries belong to the layer that composes the two.
 */

import type { GenerationOptions } from "./types.ts";

export interface ProviderEntryBase {
  /** The name the user gave (`--model`), e.g. `qwen2.5:3b`, `sim:slm-3b`, `openai:qwen2.5-3b`. */
  name: string;
  /** The model name the server knows (for `sim`: `sim:<profile>`). */
  model: string;
  options: GenerationOptions;
  /** Time limit of one model call. */
  timeoutMs?: number;
  /** Waits before each further attempt of a call the server turned away for a while (503, 429); default 0.5–4 s. */
  retryMs?: number[];
  /** Where the entry came from, for error messages: `models.yaml: models.qwen2.5:3b` or a naming rule. */
  source: string;
}

/** One of several servers of a model (`base_urls:`), with the calls it serves at once. */
export interface PooledUrl {
  url: string;
  concurrency: number;
}

/** A provider from outside this repository (src/models/provider-registry.ts). */
export interface PluginProviderEntry extends ProviderEntryBase {
  provider: "plugin";
  /** As written in models.yaml: a registered name, or `module:<path>`. */
  plugin: string;
  /** For `module:<path>`: the module's absolute path (the written path is relative to models.yaml). */
  modulePath?: string;
  /** The entry's `settings:` as written, for the factory. */
  settings: Record<string, unknown>;
}

/**
 * An entry of any provider: the common part and the provider's name. Its own keys are its definition's
 * (src/models/providers/, src/models/provider-registry.ts), whose guards narrow to them.
 */
export interface ProviderEntry extends ProviderEntryBase {
  provider: string;
}
