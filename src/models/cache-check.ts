/**
 * The request cache's store is checked before this process maps it. LMDB maps the file into memory and
 * trusts its pages: a truncated file faults with SIGBUS and a damaged header or page with SIGSEGV, which
 * no try/catch can catch. So, before opening:
 * 1. the two header (meta) pages are read with plain file reads: magic, version, page size, and whether
 *    the file still holds the last page they name (a truncated file fails here, with a clear reason);
 * 2. a child process opens the store (for writing, as a run does) and walks every entry, checking each one's digest
 *    (cache-entry.ts). A damaged page that would fault kills the child, not this process; an endless
 *    walk (a page cycle) meets the child's time limit.
 * A store that fails either is moved aside (`answers.mdb.damaged-<time>`) and a new one is started.
 * An answer failing its digest fails the store: the page it sits in is damaged, and LMDB, which reads
 * past such a page, can fault when a later write copies it (seen in the fuzz test). The keys must come
 * in order and as many as the database counts (a damaged branch page skips or repeats leaves).
 */
import { spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isWholeEntry } from "./cache-entry.ts";

export type StoreCheck = { sound: true; entries: number } | { sound: false; reason: string };

// LMDB's meta page (lmdb.h, MDB_meta after the 16-byte page header): magic, version, and in the
// free-list database's record the page size, then the last page used and the transaction id
const META_MAGIC = 0xbeefc0de;
const DATA_VERSION = 2;
const MAGIC_AT = 0x18;
const VERSION_AT = 0x1c;
const PAGE_SIZE_AT = 0x30;
const LAST_PAGE_AT = 0x90;
const MIN_PAGE = 4096;
const MAX_PAGE = 65536;

interface Meta {
  pageSize: number;
  lastPage: bigint;
}

function readMeta(fd: number, at: number): Meta | string {
  const page = Buffer.alloc(LAST_PAGE_AT + 8);
  if (readSync(fd, page, 0, page.length, at) < page.length) return "a header page is cut short";
  if (page.readUInt32LE(MAGIC_AT) !== META_MAGIC) return "a header page lacks LMDB's magic number";
  if (page.readUInt32LE(VERSION_AT) !== DATA_VERSION) return "a header page names another format version";
  const pageSize = page.readUInt32LE(PAGE_SIZE_AT);
  if (pageSize < MIN_PAGE || pageSize > MAX_PAGE || (pageSize & (pageSize - 1)) !== 0) {
    return `a header page names a page size of ${pageSize}`;
  }
  return { pageSize, lastPage: page.readBigUInt64LE(LAST_PAGE_AT) };
}

/** The header's verdict on the file, by plain reads: undefined when sound. */
export function headerFault(file: string): string | undefined {
  const fd = openSync(file, "r");
  try {
    const sizeBefore = fstatSync(fd).size;
    if (sizeBefore === 0) return undefined;
    if (sizeBefore < 2 * MIN_PAGE) return `it is ${sizeBefore} bytes, shorter than its two header pages`;
    const first = readMeta(fd, 0);
    if (typeof first === "string") return first;
    const second = readMeta(fd, first.pageSize);
    if (typeof second === "string") return second;
    if (second.pageSize !== first.pageSize) return "its two header pages disagree on the page size";
    const last = BigInt(Math.max(Number(first.lastPage), Number(second.lastPage)));
    const needed = (last + 1n) * BigInt(first.pageSize);
    // the size is taken again after the header: another process's commit between the two (the file grown,
    // then the header naming the new last page; LMDB writes pages before the header) is not a truncation
    const size = fstatSync(fd).size;
    if (BigInt(size) < needed) return `it is truncated: ${size} bytes, its header needs ${needed}`;
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * The child's program: open read-only, walk every entry, print `{entries, damaged, counted, ordered}`:
 * entries whose digest holds, those that fail it, the count the database keeps (null when another process
 * wrote during the walk), and whether the keys came in order (a damaged branch page can skip, repeat or
 * reorder leaves).
 */
function walkProgram(file: string, probeDir: string): string {
  const lmdb = createRequire(import.meta.url).resolve("lmdb");
  return `
const { createHash } = require("node:crypto");
const lmdb = require(${JSON.stringify(lmdb)});
const isWholeEntry = ${isWholeEntry.toString()};
// opened for writing, as a run opens it: a write-mode open reads parts of the header page that a read-only
// one does not, and damage there faults it (SIGSEGV, seen in the fuzz test); nothing is written here
const db = lmdb.open(${JSON.stringify(file)}, { encoding: "binary" });
let entries = 0;
let damaged = 0;
let ordered = true;
let previous;
// another process may write meanwhile: a count that moved during the walk cannot be compared with it
const countedBefore = db.getStats().entryCount;
for (const { key, value } of db.getRange()) {
  if (typeof key === "string" && value instanceof Uint8Array && isWholeEntry(key, value, createHash)) entries += 1;
  else damaged += 1;
  if (previous !== undefined && !(String(key) > previous)) ordered = false;
  previous = String(key);
}
const countedAfter = db.getStats().entryCount;
const counted = countedAfter === countedBefore ? countedAfter : null;
// writes on a copy: LMDB reuses pages its free list names, and a damaged free list hands out pages in use,
// which faults a later read (seen in the fuzz test); the walk above never reads the free list. The copy is
// LMDB's own snapshot (one read transaction), not the file's bytes: another process may be writing the
// store meanwhile, and a byte copy would be torn; the probe compares the snapshot with itself.
const probeFile = ${JSON.stringify(join(probeDir, "probe.mdb"))};
const countOwn = (store) => {
  let own = 0;
  for (const { key } of store.getRange()) if (!String(key).includes("\u0001probe")) own += 1;
  return own;
};
db.backup(probeFile, false).then(() => {
  const probe = lmdb.open(probeFile, { encoding: "binary", noSync: true });
  const before = countOwn(probe);
  for (let round = 0; round < 64; round += 1) {
    const key = String.fromCharCode(48 + ((round * 37) % 75)) + "\u0001probe" + round;
    probe.putSync(key, Buffer.alloc(1024 + round * 64, round));
    if (round % 2 === 1) probe.removeSync(key);
  }
  if (countOwn(probe) !== before) ordered = false;
  probe.close();
  process.stdout.write(JSON.stringify({ entries, damaged, counted, ordered }));
});
`;
}

/** The walk's verdict. Its time limit grows with the file: about 1 s per 10 MB, 20 s at least. */
export function walkStore(file: string): StoreCheck {
  const timeout = 20_000 + Math.ceil(statSync(file).size / 10_000);
  // the copy written to; removed here, as a child that faults cannot
  const probeDir = mkdtempSync(join(tmpdir(), "onsetlab-cache-probe-"));
  const child = spawnSync(process.execPath, ["-e", walkProgram(file, probeDir)], {
    encoding: "utf8",
    timeout,
    stdio: ["ignore", "pipe", "pipe"],
  });
  rmSync(probeDir, { recursive: true, force: true });
  if (child.error) return { sound: false, reason: `the check could not finish: ${child.error.message}` };
  if (child.signal) return { sound: false, reason: `reading it killed the check process (${child.signal})` };
  if (child.status !== 0) {
    const last = child.stderr.trim().split("\n").filter(Boolean);
    const cause = last.find((line) => /Error|MDB_/.test(line)) ?? last.at(-1) ?? `exit ${child.status}`;
    return { sound: false, reason: `reading it failed: ${cause.trim()}` };
  }
  let walk: { entries: number; damaged: number; counted: number | null; ordered: boolean };
  try {
    walk = JSON.parse(child.stdout) as typeof walk;
  } catch {
    return { sound: false, reason: "the check process gave no verdict" };
  }
  // a damaged answer means a damaged page: LMDB may read past it, but writing into that page can fault
  if (walk.damaged > 0) return { sound: false, reason: `${walk.damaged} stored answers fail their digest` };
  if (!walk.ordered) return { sound: false, reason: "its keys are out of order or lost on a write (a damaged page)" };
  if (walk.counted !== null && walk.entries !== walk.counted) {
    return { sound: false, reason: `it holds ${walk.entries} answers where its header counts ${walk.counted}` };
  }
  return { sound: true, entries: walk.entries };
}

/** The header check, then the walk; a missing file is a sound empty store. */
export function checkStore(file: string): StoreCheck {
  if (!existsSync(file)) return { sound: true, entries: 0 };
  const fault = headerFault(file);
  if (fault) return { sound: false, reason: fault };
  return walkStore(file);
}

/** Moves a damaged store aside (its lock file goes: LMDB makes a new one); returns where it went. */
export function quarantineStore(file: string, now = new Date()): string {
  const aside = `${file}.damaged-${now.toISOString().replace(/[:.]/g, "-")}`;
  renameSync(file, aside);
  rmSync(`${file}-lock`, { force: true });
  return aside;
}
