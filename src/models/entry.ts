/**
 * What a provider is made from: one model of models.yaml, or a model name resolved by its naming rule
 * (src/config/models-yaml.ts reads both). Only the provider's side of an entry is here; the agent
 * axes a model entry also carries belong to the layer that composes the two.
 */

import type { TokenizerSetting } from "./tokenizer.ts";
import type { GenerationOptions } from "./types.ts";

interface ProviderEntryBase {
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

export interface OllamaProviderEntry extends ProviderEntryBase {
  provider: "ollama";
  host?: string;
  /** Several servers of this model instead of `host` (src/models/url-pool.ts). */
  baseUrls?: PooledUrl[];
  /** A thinking model thinks in stage calls only with `think: true`. */
  think?: boolean;
}

export interface OpenAIProviderEntry extends ProviderEntryBase {
  provider: "openai";
  baseUrl?: string;
  /** Several servers of this model instead of `baseUrl` (src/models/url-pool.ts). */
  baseUrls?: PooledUrl[];
  /** The NAME of the environment variable holding the key. */
  apiKeyEnv?: string;
  allowRemote: boolean;
  /** The server's context window, when /v1/models does not give it. */
  contextWindow?: number;
  /** Ask the server's tokenizer when the estimate cannot tell whether a prompt fits (`auto`, default), or never (`off`). */
  tokenizer?: TokenizerSetting;
}

export interface SimProviderEntry extends ProviderEntryBase {
  provider: "sim";
  /** `oracle`, `slm-3b`, `slm-7b`, `chaos`. */
  profile: string;
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

export type ProviderEntry = OllamaProviderEntry | OpenAIProviderEntry | SimProviderEntry | PluginProviderEntry;
