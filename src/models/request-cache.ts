/**
 * The request cache's store: answers of deterministic model requests, kept across runs in an LMDB
 * database (`$ONSETLAB_CACHE_DIR`, else `~/.cache/onsetlab/requests`). LMDB gives random access by key,
 * one atomic commit per write (a reader sees a whole answer or none) and a file a killed process leaves
 * readable; several processes may use it at once. Keys are `<model entry>\x1f<sha256>`, so one model's
 * answers are one key range (stats and `cache clear --model` read only that range).
 *
 * One store per folder per process: every provider of a run shares it, and with it the map of requests
 * in flight, so identical requests asked at once go out once.
 *
 * Damage never reaches a score: the store is checked before it is mapped (cache-check.ts), every answer
 * carries its digest (cache-entry.ts), and a read that fails for any reason is a miss (the request goes
 * to the model). A write that fails (a full disk) is said once and the run goes on without storing.
 */

import { mkdirSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { join } from "node:path";
import type { RootDatabase } from "lmdb";
import { OnsetlabError } from "../errors.ts";
import { checkStore, quarantineStore } from "./cache-check.ts";
import { decodeEntry, encodeEntry } from "./cache-entry.ts";
import type { CompletionResponse } from "./types.ts";

/** The store's file in the cache folder (answers with their digests; `requests.mdb` was the format before). */
export const STORE_FILE = "answers.mdb";

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

/**
 * How a run used the cache: answers served from it, requests sent, requests that joined one in flight,
 * and stored answers that were damaged (read as misses: those requests were sent too).
 */
export interface CacheCounters {
  hits: number;
  misses: number;
  coalesced: number;
  damaged: number;
}

export interface CacheStats {
  dir: string;
  entries: number;
  /** Entries per model entry name. */
  models: Record<string, number>;
  /** Stored answers that fail their digest (each reads as a miss; the answer sent again replaces it). */
  damaged: number;
  /** Damaged stores moved aside in the folder (`answers.mdb.damaged-<time>`). */
  quarantined: string[];
}

/** Where the store's notices go (a damaged store moved aside, damaged answers, a failed write): stderr by default. */
export type CacheNotice = (line: string) => void;

const stderrNotice: CacheNotice = (line) => process.stderr.write(`${line}\n`);

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
  private readonly db: RootDatabase<Uint8Array, string>;
  readonly file: string;
  /** Requests sent and not yet answered, by store key: an identical request joins the one in flight. */
  private readonly pending = new Map<string, Promise<CachedAnswer>>();
  readonly counters: CacheCounters = { hits: 0, misses: 0, coalesced: 0, damaged: 0 };
  private damageSaid = false;
  /** Cleared by the first failed write: the answers after it are not stored. */
  private writable = true;

  constructor(
    readonly dir: string,
    private readonly notice: CacheNotice = stderrNotice,
  ) {
    this.file = join(dir, STORE_FILE);
    try {
      mkdirSync(dir, { recursive: true });
      const check = checkStore(this.file);
      if (!check.sound) {
        const aside = quarantineStore(this.file);
        notice(`request cache: ${this.file} is damaged (${check.reason}); moved it to ${aside}, starting an empty one`);
      }
      // loaded on first use: a run that caches nothing (the simulator) never pays for the native module
      const lmdb = createRequire(import.meta.url)("lmdb") as typeof import("lmdb");
      this.db = lmdb.open<Uint8Array, string>(this.file, { encoding: "binary" });
    } catch (error) {
      throw new RequestCacheError("CACHE_UNAVAILABLE", `cannot open the request cache at ${dir}: ${String(error)}`, {
        context: { dir },
        cause: error,
      });
    }
  }

  /** The stored answer; undefined when there is none or it is damaged (counted, and said once). */
  get(model: string, hash: string): CachedAnswer | undefined {
    const key = storeKey(model, hash);
    let stored: CachedAnswer | "damaged" | undefined;
    try {
      const value = this.db.get(key);
      stored = value === undefined ? undefined : decodeEntry(key, value);
    } catch {
      stored = "damaged";
    }
    if (stored !== "damaged") return stored;
    this.counters.damaged += 1;
    if (!this.damageSaid) {
      this.damageSaid = true;
      this.notice(
        `request cache: a damaged answer in ${this.file} was read as a miss (the request went to the model); \`pnpm run cache stats\` counts them`,
      );
    }
    return undefined;
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
    const stored = this.get(model, hash);
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
      await this.store(key, answer);
      return answer;
    });
    this.pending.set(key, sent);
    try {
      return { answer: await sent, from: "sent" };
    } finally {
      this.pending.delete(key);
    }
  }

  /**
   * Stores an answer; a failed write (a full disk, an I/O error) is said once, with the file and the
   * cause, and the run goes on without storing: the answer itself is sound, only its reuse is lost.
   */
  private async store(key: string, answer: CachedAnswer): Promise<void> {
    if (!this.writable) return;
    try {
      await this.db.put(key, encodeEntry(key, answer));
    } catch (error) {
      // lmdb also rejects the failed batch's own commit promise, which no put returned (seen on a full
      // tmpfs): left unhandled, it ends the process after the notice below
      this.db.committed.then(undefined, () => {});
      if (!this.writable) return;
      this.writable = false;
      const say = (failure: unknown) => {
        const cause = (failure as NodeJS.ErrnoException).code ?? (failure as Error).message ?? String(failure);
        this.notice(`request cache: cannot write to ${this.file} (${cause}); answers from now on are not stored`);
      };
      // lmdb rejects a put with "Commit failed (see commitError for details)" and then a second promise
      // with the cause (ENOSPC, MDB_MAP_FULL): left unhandled, that one ended the process with a stack trace
      const commitError = (error as { commitError?: Promise<unknown> }).commitError;
      if (commitError) commitError.then(() => say(error), say);
      else say(error);
    }
  }

  stats(): CacheStats {
    const models: Record<string, number> = {};
    let damaged = 0;
    for (const { key, value } of this.db.getRange()) {
      if (decodeEntry(key, value) === "damaged") {
        damaged += 1;
        continue;
      }
      const model = key.slice(0, key.indexOf(SEPARATOR));
      models[model] = (models[model] ?? 0) + 1;
    }
    const entries = Object.values(models).reduce((sum, count) => sum + count, 0);
    const quarantined = readdirSync(this.dir).filter((name) => name.startsWith(`${STORE_FILE}.damaged-`));
    return { dir: this.dir, entries, models, damaged, quarantined };
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
