/**
 * The `openai` provider: a model behind an OpenAI-compatible server (llama.cpp, vLLM, LM Studio, a
 * remote API when allowed), or several (`base_urls:`). `openai:<model>` names one with the defaults.
 */

import { z } from "zod";
import type { PooledUrl, ProviderEntry, ProviderEntryBase } from "../entry.ts";
import { OpenAIProvider, resolveOpenAIBaseUrl } from "../openai.ts";
import { TOKENIZER_SETTINGS, type TokenizerSetting } from "../tokenizer.ts";
import type { ProviderDefinition } from "./definition.ts";
import { baseUrlsSchema, oneServerKey, pooledProvider, pooledUrls, retryOf, serverIdentity } from "./server-common.ts";

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

export function isOpenAIEntry(entry: ProviderEntry): entry is OpenAIProviderEntry {
  return entry.provider === "openai";
}

const entrySchema = z
  .strictObject({
    base_url: z.string().min(1).optional(),
    base_urls: baseUrlsSchema.optional(),
    api_key_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected the NAME of an environment variable, not a key")
      .optional(),
    allow_remote: z.boolean().optional(),
    context_window: z.number().int().positive().optional(),
    tokenizer: z.enum(TOKENIZER_SETTINGS).optional(),
  })
  .superRefine((entry, context) => oneServerKey(entry, "base_url", context));

type Own = z.infer<typeof entrySchema>;

export const openaiDefinition: ProviderDefinition<OpenAIProviderEntry> = {
  name: "openai",
  entrySchema,
  toEntry: (written, common, place) => {
    const own = written as Own;
    return {
      ...common,
      provider: "openai",
      model: place.model ?? common.name,
      ...(own.base_url === undefined ? {} : { baseUrl: own.base_url }),
      ...(own.base_urls === undefined ? {} : { baseUrls: pooledUrls(own.base_urls) }),
      ...(own.api_key_env === undefined ? {} : { apiKeyEnv: own.api_key_env }),
      allowRemote: own.allow_remote ?? false,
      ...(own.context_window === undefined ? {} : { contextWindow: own.context_window }),
      ...(own.tokenizer === undefined ? {} : { tokenizer: own.tokenizer }),
    };
  },
  naming: {
    rest: "model",
    entry: (rest, common) => ({ ...common, provider: "openai", model: rest, allowRemote: false }),
  },
  create: (entry) =>
    pooledProvider(
      entry.baseUrls,
      (url) =>
        new OpenAIProvider({
          model: entry.model,
          baseUrl: url ?? entry.baseUrl,
          apiKeyEnv: entry.apiKeyEnv,
          allowRemote: entry.allowRemote,
          options: entry.options,
          timeoutMs: entry.timeoutMs,
          source: entry.source,
          contextWindow: entry.contextWindow,
          tokenizer: entry.tokenizer,
          ...retryOf(entry),
        }),
    ),
  identity: (entry) =>
    serverIdentity(entry, () => resolveOpenAIBaseUrl(entry.baseUrl), {
      contextWindow: entry.contextWindow ?? "server",
      tokenizer: entry.tokenizer ?? "auto",
    }),
  provenance: "live",
};
