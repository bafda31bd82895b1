/**
 * The `ollama` provider: a model an Ollama server (or several, `base_urls:`) serves. Any model name
 * that names no other provider is one (`qwen2.5:3b`, `ollama:<model>`).
 */

import { z } from "zod";
import type { PooledUrl, ProviderEntry, ProviderEntryBase } from "../entry.ts";
import { OllamaProvider, resolveOllamaHost } from "../ollama.ts";
import type { ProviderDefinition } from "./definition.ts";
import { baseUrlsSchema, oneServerKey, pooledProvider, pooledUrls, retryOf, serverIdentity } from "./server-common.ts";

export interface OllamaProviderEntry extends ProviderEntryBase {
  provider: "ollama";
  host?: string;
  /** Several servers of this model instead of `host` (src/models/url-pool.ts). */
  baseUrls?: PooledUrl[];
  /** A thinking model thinks in stage calls only with `think: true`. */
  think?: boolean;
}

export function isOllamaEntry(entry: ProviderEntry): entry is OllamaProviderEntry {
  return entry.provider === "ollama";
}

const entrySchema = z
  .strictObject({
    host: z.string().min(1).optional(),
    base_urls: baseUrlsSchema.optional(),
    think: z.boolean().optional(),
  })
  .superRefine((entry, context) => oneServerKey(entry, "host", context));

type Own = z.infer<typeof entrySchema>;

/** `satisfies`, so that models.yaml may call its naming rule for a name no other provider claims. */
export const ollamaDefinition = {
  name: "ollama",
  entrySchema,
  toEntry: (written, common, place) => {
    const own = written as Own;
    return {
      ...common,
      provider: "ollama",
      model: place.model ?? common.name,
      ...(own.host === undefined ? {} : { host: own.host }),
      ...(own.base_urls === undefined ? {} : { baseUrls: pooledUrls(own.base_urls) }),
      ...(own.think === undefined ? {} : { think: own.think }),
    };
  },
  naming: { rest: "model", entry: (rest, common) => ({ ...common, provider: "ollama", model: rest }) },
  create: (entry) =>
    pooledProvider(
      entry.baseUrls,
      (url) =>
        new OllamaProvider({
          model: entry.model,
          host: url ?? entry.host,
          options: entry.options,
          timeoutMs: entry.timeoutMs,
          think: entry.think,
          ...retryOf(entry),
        }),
    ),
  identity: (entry) =>
    serverIdentity(entry, () => resolveOllamaHost(entry.host), {
      think: entry.think,
      numCtx: entry.options.numCtx ?? "auto",
    }),
  provenance: "live",
} satisfies ProviderDefinition<OllamaProviderEntry>;
