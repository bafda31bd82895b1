/**
 * What the two server providers (ollama, openai) share: several servers of one model (`base_urls:`,
 * url-pool.ts) and the retry waits of a call the server turned away for a while.
 */

import { z } from "zod";
import type { ModelIdentity } from "../caching-provider.ts";
import type { PooledUrl, ProviderEntry, ProviderEntryBase } from "../entry.ts";
import type { RetryPolicy } from "../http.ts";
import type { ModelProvider } from "../types.ts";
import { UrlPoolProvider } from "../url-pool.ts";

const httpUrl = z.string().refine((text) => {
  try {
    return ["http:", "https:"].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}, "expected an http(s) URL, e.g. http://127.0.0.1:11434");

/** One of several servers of a model: a URL, or `{url, concurrency}` (calls it serves at once; default 1). */
export const baseUrlsSchema = z
  .array(z.union([httpUrl, z.strictObject({ url: httpUrl, concurrency: z.number().int().positive().optional() })]))
  .min(1);

export function pooledUrls(written: z.infer<typeof baseUrlsSchema> | undefined): PooledUrl[] | undefined {
  return written?.map((item) =>
    typeof item === "string" ? { url: item, concurrency: 1 } : { url: item.url, concurrency: item.concurrency ?? 1 },
  );
}

/** `base_urls` replaces the one server's key (`host`, `base_url`): an entry gives one or the other. */
export function oneServerKey(entry: { base_urls?: unknown }, key: string, context: z.RefinementCtx): void {
  const single = (entry as Record<string, unknown>)[key];
  if (entry.base_urls !== undefined && single !== undefined) {
    context.addIssue({ code: "custom", path: ["base_urls"], message: `give \`base_urls\` or \`${key}\`, not both` });
  }
}

/** One provider per server when the entry lists several, else the one server's. */
export function pooledProvider(
  baseUrls: PooledUrl[] | undefined,
  serverAt: (url: string | undefined) => ModelProvider,
): ModelProvider {
  if (!baseUrls) return serverAt(undefined);
  return new UrlPoolProvider(baseUrls.map(({ url, concurrency }) => ({ url, concurrency, provider: serverAt(url) })));
}

export function retryOf(entry: ProviderEntryBase): { retry?: RetryPolicy } {
  return entry.retryMs ? { retry: { delaysMs: entry.retryMs } } : {};
}

/**
 * A server model's cache identity: the servers it is reached at (`base_urls`, else the one the entry or
 * the environment names) and the settings the server sees besides the options.
 */
export function serverIdentity(
  entry: ProviderEntry & { baseUrls?: PooledUrl[] },
  oneServer: () => string,
  settings: Record<string, unknown>,
): ModelIdentity {
  const baseUrls = entry.baseUrls ? entry.baseUrls.map((pooled) => pooled.url) : [oneServer()];
  return { name: entry.name, provider: entry.provider, model: entry.model, options: entry.options, baseUrls, settings };
}
