/**
 * The request cache under damage: a damaged answer reads as a miss (the model is asked, the damage
 * counted and said once), a truncated or headless store is moved aside before it is mapped (no SIGBUS,
 * no SIGSEGV), a failed write (a full disk) is said once and the run goes on. And the key holds what
 * decides validity: an openai entry's window and tokenizer, Ollama's num_ctx policy.
 */
import { existsSync, mkdtempSync, openSync, readdirSync, truncateSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadModelsConfig, resolveModel } from "../../../src/config/models-yaml.ts";
import { requestHash } from "../../../src/models/caching-provider.ts";
import type { ProviderEntry } from "../../../src/models/entry.ts";
import { modelIdentity } from "../../../src/models/factory.ts";
import { isOpenAIEntry, type OpenAIProviderEntry } from "../../../src/models/providers/openai.ts";
import { type CachedAnswer, RequestCache, STORE_FILE } from "../../../src/models/request-cache.ts";

const opened: RequestCache[] = [];
afterEach(async () => {
  for (const cache of opened.splice(0)) await cache.close();
});

function open(dir: string, notices: string[] = []): RequestCache {
  const cache = new RequestCache(dir, (line) => notices.push(line));
  opened.push(cache);
  return cache;
}

const answer = (text: string): CachedAnswer => ({
  model: "m",
  response: { text, usage: { promptTokens: 1, completionTokens: 1 }, timings: { totalMs: 1 } },
  durationMs: 5,
  storedAt: "2026-01-01T00:00:00.000Z",
});

/** A store holding `count` answers of model `m`, closed. */
async function filledStore(count: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "onsetlab-cache-damage-"));
  const cache = new RequestCache(dir, () => {});
  for (let index = 0; index < count; index += 1) {
    await cache.answer("m", `h${index}`, async () => answer(`answer ${index} ${"x".repeat(3000)}`));
  }
  await cache.close();
  return dir;
}

describe("a damaged answer", () => {
  it("found when the store is opened: the store is moved aside, nothing of it is read", async () => {
    const dir = await filledStore(3);
    await damageAnswers(dir);
    const notices: string[] = [];
    const cache = open(dir, notices);
    expect(notices).toEqual([expect.stringMatching(/is damaged \(2 stored answers fail their digest\); moved it/)]);
    expect(cache.stats()).toMatchObject({ entries: 0, damaged: 0 });
    expect(cache.get("m", "h2")).toBeUndefined();
  });

  it("met while in use reads as a miss: the request goes to the model, the damage is counted and said once", async () => {
    const dir = await filledStore(3);
    const notices: string[] = [];
    const cache = open(dir, notices);
    await damageAnswers(dir);
    expect(cache.stats()).toMatchObject({ entries: 1, damaged: 2 });
    let asked = 0;
    const fresh = async () => {
      asked += 1;
      return answer("fresh");
    };
    for (const hash of ["h0", "h1", "h2"]) await cache.answer("m", hash, fresh);
    expect(asked).toBe(2);
    expect(cache.counters).toMatchObject({ hits: 1, misses: 2, damaged: 2 });
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain("read as a miss");
    // the answers sent again replaced the damaged ones
    expect(cache.get("m", "h0")?.response.text).toBe("fresh");
    expect(cache.stats()).toMatchObject({ entries: 3, damaged: 0 });
  });
});

/** Bytes that are no answer, written under h0 and h1 by another handle on the same file. */
async function damageAnswers(dir: string): Promise<void> {
  const lmdb = createRequire(import.meta.url)("lmdb") as typeof import("lmdb");
  const raw = lmdb.open<Buffer, string>(join(dir, STORE_FILE), { encoding: "binary" });
  await raw.put("m\u001fh0", Buffer.from([0xd9, 0x40, 0x61]));
  await raw.put("m\u001fh1", Buffer.from("a stored answer whose digest does not match it".padEnd(64)));
  await raw.close();
}

describe("a damaged store", () => {
  it("truncated: moved aside before it is mapped, and a new one started (no SIGBUS)", async () => {
    const dir = await filledStore(40);
    const file = join(dir, STORE_FILE);
    const { size } = await import("node:fs").then((fs) => fs.statSync(file));
    truncateSync(file, Math.floor(size / 2));
    const notices: string[] = [];
    const cache = open(dir, notices);
    expect(notices).toEqual([expect.stringMatching(/is damaged \(it is truncated: .*\); moved it to .*damaged-/)]);
    const stats = cache.stats();
    expect(stats).toMatchObject({ entries: 0, damaged: 0 });
    expect(stats.quarantined).toHaveLength(1);
    expect(readdirSync(dir)).toContain(stats.quarantined[0]);
    await cache.answer("m", "h0", async () => answer("new"));
    expect(cache.get("m", "h0")?.response.text).toBe("new");
  });

  it("with a damaged header: moved aside (no SIGSEGV)", async () => {
    const dir = await filledStore(5);
    const fd = openSync(join(dir, STORE_FILE), "r+");
    writeSync(fd, Buffer.alloc(64, 0xab), 0, 64, 0);
    const notices: string[] = [];
    open(dir, notices);
    expect(notices).toEqual([expect.stringContaining("magic number")]);
  });

  it("damaged inside its pages: whatever the walk meets, this process only ever sees a sound store", async () => {
    const dir = await filledStore(60);
    const file = join(dir, STORE_FILE);
    const fd = openSync(file, "r+");
    // the second header page's root and page counts, and a branch of the tree, overwritten
    for (const at of [4096 + 0x60, 8192, 8192 + 16]) writeSync(fd, Buffer.alloc(48, 0xff), 0, 48, at);
    const notices: string[] = [];
    const cache = open(dir, notices);
    const stats = cache.stats();
    // either moved aside, or every answer that survived reads back whole and the rest are misses
    if (notices.length > 0) expect(stats.entries).toBe(0);
    for (let index = 0; index < 60; index += 1) {
      const stored = cache.get("m", `h${index}`);
      if (stored) expect(stored.response.text.startsWith(`answer ${index} `)).toBe(true);
    }
  });

  it("an empty or missing file is a new store, not a damaged one", () => {
    const notices: string[] = [];
    const dir = mkdtempSync(join(tmpdir(), "onsetlab-cache-new-"));
    open(dir, notices);
    expect(notices).toEqual([]);
    expect(existsSync(join(dir, STORE_FILE))).toBe(true);
  });
});

describe("a failed write", () => {
  it("(ENOSPC) is said once with the file and cause; the answers still come back, unstored", async () => {
    const notices: string[] = [];
    const cache = open(mkdtempSync(join(tmpdir(), "onsetlab-cache-full-")), notices);
    const full = Object.assign(new Error("MDB_MAP_FULL: Commit failed"), { code: "ENOSPC" });
    // the store's database handle, with its write failing as on a full disk
    const db = (cache as unknown as { db: { put: () => Promise<boolean> } }).db;
    vi.spyOn(db, "put").mockRejectedValue(full);
    const first = await cache.answer("m", "h0", async () => answer("one"));
    const second = await cache.answer("m", "h1", async () => answer("two"));
    expect([first.answer.response.text, second.answer.response.text]).toEqual(["one", "two"]);
    expect(notices).toEqual([
      `request cache: cannot write to ${cache.file} (ENOSPC); answers from now on are not stored`,
    ]);
    expect(cache.get("m", "h0")).toBeUndefined();
  });
});

describe("a failed commit as lmdb reports it", () => {
  it("names the cause lmdb gives later, and leaves no unhandled rejection to end the process", async () => {
    const notices: string[] = [];
    const cache = open(mkdtempSync(join(tmpdir(), "onsetlab-cache-commit-")), notices);
    let rejectCommit: (error: Error) => void = () => {};
    const commitError = new Promise<never>((_, reject) => {
      rejectCommit = reject;
    });
    const failed = Object.assign(new Error("Commit failed (see commitError for details)"), { commitError });
    const db = (cache as unknown as { db: { put: () => Promise<boolean> } }).db;
    vi.spyOn(db, "put").mockRejectedValue(failed);
    const sent = await cache.answer("m", "h0", async () => answer("one"));
    expect(sent.answer.response.text).toBe("one");
    rejectCommit(Object.assign(new Error("MDB_MAP_FULL: Environment mapsize limit reached"), { code: "ENOSPC" }));
    await commitError.catch(() => {});
    expect(notices).toEqual([
      `request cache: cannot write to ${cache.file} (ENOSPC); answers from now on are not stored`,
    ]);
  });
});

describe("a failed commit on a full disk", () => {
  it("leaves lmdb's rejected batch promise handled, so the run goes on after the notice", async () => {
    const notices: string[] = [];
    const cache = open(mkdtempSync(join(tmpdir(), "onsetlab-cache-batch-")), notices);
    const db = cache["db" as keyof RequestCache] as unknown as {
      put: () => Promise<boolean>;
      committed: PromiseLike<boolean>;
    };
    // as lmdb does when a commit fails: the put's promise and the batch's commit promise both reject
    let batch: Promise<boolean> | undefined;
    vi.spyOn(db, "put").mockImplementation(() => {
      const failure = new Error("Commit failed (see commitError for details)");
      batch = Promise.reject(failure);
      return Promise.reject(failure);
    });
    vi.spyOn(db, "committed", "get").mockImplementation(() => batch!);
    const unhandled: unknown[] = [];
    const listen = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", listen);
    try {
      const sent = await cache.answer("m", "h0", async () => answer("one"));
      expect(sent.answer.response.text).toBe("one");
      // unhandled rejections are reported once the microtasks of this turn have run
      await new Promise((settled) => setImmediate(settled));
      expect(unhandled).toEqual([]);
      expect(notices).toHaveLength(1);
    } finally {
      process.off("unhandledRejection", listen);
    }
  });
});

describe("the key", () => {
  const config = loadModelsConfig();
  const request = { stage: "native" as const, messages: [{ role: "user" as const, content: "hi" }] };
  const hashOf = (entry: ProviderEntry | OpenAIProviderEntry) =>
    requestHash(modelIdentity(entry), "d", "chat", request);

  it("holds an openai entry's context window and tokenizer: they decide context_overflow", () => {
    const entry = resolveModel(config, "llamacpp:qwen2.5-3b");
    if (!isOpenAIEntry(entry)) throw new Error("an openai entry");
    const hashes = [
      hashOf({ ...entry, contextWindow: 32_768 }),
      hashOf({ ...entry, contextWindow: 1024 }),
      hashOf({ ...entry, contextWindow: undefined }),
      hashOf({ ...entry, contextWindow: 1024, tokenizer: "off" }),
    ];
    expect(new Set(hashes).size).toBe(4);
  });

  it("holds an Ollama entry's num_ctx policy (auto or a fixed window)", () => {
    const entry = resolveModel(config, "qwen2.5:3b");
    const auto = hashOf({ ...entry, options: { ...entry.options, numCtx: undefined } });
    const fixed = hashOf({ ...entry, options: { ...entry.options, numCtx: 4096 } });
    expect(auto).not.toBe(fixed);
  });
});
