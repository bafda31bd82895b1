/**
 * The request cache's store: answers of deterministic model requests, kept across runs in an LMDB
 * database (`$ONSETLAB_CACHE_DIR`, else `~/.cache/onsetlab/requests`). LMDB gives random access by key,
 * one atomic commit per write (a reader sees a whole answer or none) and a file a killed process leaves
 * readable; several processes may use it at once. Keys are `<model entry>\x1f<sha256>`, so one model's
 * answers are one key range (stats and `cache clear --model` read only that range).
 *
 * One store per folder per process: every provider of a run shares it, and with it the map of requests
 * in flight, so identical requests asked at once go out once.
 */

import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { join } from "node:path";
import type { RootDatabase } from "lmdb";
import { OnsetlabError } from "../errors.ts";
import type { CompletionResponse } from "./types.ts";

/** The store could not be opened, read or written (a broken folder, a full disk). */
export class RequestCacheError extends OnsetlabError {}

/** What the cache keeps of one answered request. */
export interface CachedAnswer {
  /** The model entry's name (what `cache clear --model` names). */
  model: string;
  /** The answer as the provider gave it (a chat answer carries its tool calls). */
  response: CompletionResponse;
  /** The original call's wall time: a cached record keeps it, so latency statistics describe the model. */
  durationMs: number;
  storedAt: string;
}

/** How a run used the cache: answers served from it, requests sent, requests that joined one in flight. */
export interface CacheCounters {
  hits: number;
  misses: number;
  coalesced: number;
}

export interface CacheStats {
  dir: string;
  entries: number;
  /** Entries per model entry name. */
  models: Record<string, number>;
}

/** The cache folder: `$ONSETLAB_CACHE_DIR`, else `~/.cache/onsetlab/requests`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.ONSETLAB_CACHE_DIR?.trim() || join(homedir(), ".cache", "onsetlab", "requests");
}

// a control character no model name holds (ordered-binary, the key encoding, reserves \u0000)
const SEPARATOR = "\u001f";

function storeKey(model: string, hash: string): string {
  return `${model}${SEPARATOR}${hash}`;
}

function modelRange(model: string): { start: string; end: string } {
  return { start: `${model}${SEPARATOR}`, end: `${model}\u0020` };
}

export class RequestCache {
  private readonly db: RootDatabase<CachedAnswer, string>;
  /** Requests sent and not yet answered, by store key: an identical request joins the one in flight. */
  private readonly pending = new Map<string, Promise<CachedAnswer>>();
  readonly counters: CacheCounters = { hits: 0, misses: 0, coalesced: 0 };

  constructor(readonly dir: string) {
    try {
      mkdirSync(dir, { recursive: true });
      // loaded on first use: a run that caches nothing (the simulator) never pays for the native module
      const lmdb = createRequire(import.meta.url)("lmdb") as typeof import("lmdb");
      this.db = lmdb.open<CachedAnswer, string>(join(dir, "requests.mdb"), {});
    } catch (error) {
      throw new RequestCacheError("CACHE_UNAVAILABLE", `cannot open the request cache at ${dir}: ${String(error)}`, {
        context: { dir },
        cause: error,
      });
    }
  }

  get(model: string, hash: string): CachedAnswer | undefined {
    return this.db.get(storeKey(model, hash));
  }

  /**
   * The cached answer, or `send`'s once it is stored. A request identical to one in flight waits for
   * that one instead of going out again; a failure is not stored (the next ask sends again).
   */
  async answer(
    model: string,
    hash: string,
    send: () => Promise<CachedAnswer>,
  ): Promise<{ answer: CachedAnswer; from: "cache" | "joined" | "sent" }> {
    const key = storeKey(model, hash);
    const stored = this.db.get(key);
    if (stored) {
      this.counters.hits += 1;
      return { answer: stored, from: "cache" };
    }
    const inFlight = this.pending.get(key);
    if (inFlight) {
      this.counters.coalesced += 1;
      return { answer: await inFlight, from: "joined" };
    }
    this.counters.misses += 1;
    const sent = send().then(async (answer) => {
      try {
        await this.db.put(key, answer);
      } catch (error) {
        throw new RequestCacheError(
          "CACHE_WRITE_FAILED",
          `cannot write to the request cache at ${this.dir}: ${String(error)}`,
          {
            context: { dir: this.dir, model },
            cause: error,
          },
        );
      }
      return answer;
    });
    this.pending.set(key, sent);
    try {
      return { answer: await sent, from: "sent" };
    } finally {
      this.pending.delete(key);
    }
  }

  stats(): CacheStats {
    const models: Record<string, number> = {};
    for (const key of this.db.getKeys()) {
      const model = key.slice(0, key.indexOf(SEPARATOR));
      models[model] = (models[model] ?? 0) + 1;
    }
    const entries = Object.values(models).reduce((sum, count) => sum + count, 0);
    return { dir: this.dir, entries, models };
  }

  /** Removes one model's answers (or all); returns how many went. */
  async clear(model?: string): Promise<number> {
    if (model === undefined) {
      const count = this.db.getCount();
      await this.db.clearAsync();
      return count;
    }
    const keys = [...this.db.getKeys(modelRange(model))];
    await this.db.transaction(() => {
      for (const key of keys) this.db.remove(key);
    });
    return keys.length;
  }

  async close(): Promise<void> {
    opened.delete(this.dir);
    await this.db.close();
  }
}

const opened = new Map<string, RequestCache>();

/** The process's store for `dir` (opened on first use). */
export function requestCacheAt(dir: string): RequestCache {
  let cache = opened.get(dir);
  if (!cache) {
    cache = new RequestCache(dir);
    opened.set(dir, cache);
  }
  return cache;
}
