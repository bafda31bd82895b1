/**
 * The header check against a store another process is writing: a commit that lands between the check's
 * reads grows the file and then names the new last page in the header. The check reads the header, then
 * the size, so that commit is not taken for a truncation (CI saw a healthy store moved aside for it).
 * The commit is made to land at the worst moment: just before the check's first header read.
 */
import { mkdtempSync, statSync, truncateSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { headerFault } from "../../../src/models/cache-check.ts";
import { STORE_FILE } from "../../../src/models/request-cache.ts";

const beforeNextRead = vi.hoisted(() => ({ run: undefined as (() => void) | undefined }));

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const readSync = ((...args: Parameters<typeof fs.readSync>) => {
    const run = beforeNextRead.run;
    beforeNextRead.run = undefined;
    run?.();
    return fs.readSync(...args);
  }) as typeof fs.readSync;
  return { ...fs, default: { ...fs, readSync }, readSync };
});

const lmdb = createRequire(import.meta.url)("lmdb") as typeof import("lmdb");
const stores: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

function writtenStore() {
  const file = join(mkdtempSync(join(tmpdir(), "onsetlab-cache-growth-")), STORE_FILE);
  const db = lmdb.open<Uint8Array, string>(file, { encoding: "binary" });
  stores.push(db);
  const write = (from: number, count: number) => {
    for (let index = from; index < from + count; index += 1) db.putSync(`key-${index}`, Buffer.alloc(4096, index));
  };
  return { file, write };
}

describe("the header check while another writer commits", () => {
  it("does not call the store truncated when a commit grows it between the check's reads", () => {
    const { file, write } = writtenStore();
    write(0, 20);
    beforeNextRead.run = () => write(20, 200);
    expect(headerFault(file)).toBeUndefined();
    // the commit did land during the check
    expect(beforeNextRead.run).toBeUndefined();
  });

  it("still calls a store truncated when its pages are gone", async () => {
    const { file, write } = writtenStore();
    write(0, 50);
    await stores.pop()!.close();
    truncateSync(file, statSync(file).size - 4096 * 4);
    expect(headerFault(file)).toMatch(/^it is truncated: \d+ bytes, its header needs \d+$/);
  });
});
