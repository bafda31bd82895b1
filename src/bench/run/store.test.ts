import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  CorruptRecordsError,
  continueRunFile,
  countRows,
  flushOpenAppenders,
  forEachJsonl,
  JsonlGzAppender,
  listRunIds,
  newRunId,
  PLAIN_RUN_FILES,
  RUN_FILES,
  readJsonl,
  runFile,
  tornBytes,
  truncateTorn,
  writeJsonAtomic,
} from "./store.ts";

const temp = () => mkdtempSync(join(tmpdir(), "store-"));
const gz = (text: string) => gzipSync(text);
const members = (...texts: string[]) => Buffer.concat(texts.map(gz));

describe("results store: gzip JSON lines", () => {
  it("appends whole lines in gzip members that zlib's gunzip (zcat) reads as one file", () => {
    const file = join(temp(), "records.jsonl.gz");
    const appender = new JsonlGzAppender(file, { rows: 2, delayMs: 60_000 });
    appender.append({ key: "a" });
    appender.append({ key: "b", nested: { text: "line\nbreak" } });
    // two rows make a member: on disk before close
    expect(countRows(file)).toBe(2);
    appender.append({ key: "c" });
    expect(countRows(file)).toBe(2);
    appender.close();
    const rows = [{ key: "a" }, { key: "b", nested: { text: "line\nbreak" } }, { key: "c" }];
    expect(readJsonl(file)).toEqual({ rows, tornBytes: 0 });
    expect(gunzipSync(readFileSync(file)).toString()).toBe(rows.map((row) => `${JSON.stringify(row)}\n`).join(""));
  });

  it("writes a batch once its delay has passed, and every open batch on flushOpenAppenders", async () => {
    const dir = temp();
    const timed = new JsonlGzAppender(join(dir, "timed.jsonl.gz"), { rows: 100, delayMs: 20 });
    const forced = new JsonlGzAppender(join(dir, "forced.jsonl.gz"), { rows: 100, delayMs: 60_000 });
    timed.append({ key: "a" });
    forced.append({ key: "b" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect([countRows(timed.file), countRows(forced.file)]).toEqual([1, 0]);
    flushOpenAppenders();
    expect(countRows(forced.file)).toBe(1);
    timed.close();
    forced.close();
  });

  it("treats a last member cut off mid-write as torn; truncation leaves whole members to append to", () => {
    const file = join(temp(), "records.jsonl.gz");
    const whole = members('{"key":"a"}\n', '{"key":"b"}\n');
    const next = gz('{"key":"c"}\n'.repeat(20));
    // every cut of the last member: in its header, its data, its trailer
    for (const cut of [1, 5, 10, 14, next.length - 8, next.length - 1]) {
      writeFileSync(file, Buffer.concat([whole, next.subarray(0, cut)]));
      const read = readJsonl<{ key: string }>(file);
      expect([cut, read.rows.map((row) => row.key), read.tornBytes]).toEqual([cut, ["a", "b"], cut]);
      expect(tornBytes(file)).toBe(cut);
    }
    truncateTorn(file, tornBytes(file));
    appendFileSync(file, gz('{"key":"d"}\n'));
    expect(gunzipSync(readFileSync(file)).toString()).toBe('{"key":"a"}\n{"key":"b"}\n{"key":"d"}\n');
  });

  it("refuses a file damaged before its end: bad JSON (file:line), a damaged member, a bad checksum", () => {
    const dir = temp();
    const badJson = join(dir, "json.jsonl.gz");
    writeFileSync(badJson, members('{"key":"a"}\nnot json\n', '{"key":"c"}\n'));
    expect(() => readJsonl(badJson)).toThrow(`${badJson}:2: not valid JSON`);
    const damaged = members('{"key":"a"}\n'.repeat(50), '{"key":"c"}\n');
    damaged[12] = damaged[12]! ^ 0xff;
    writeFileSync(join(dir, "member.jsonl.gz"), damaged);
    expect(() => readJsonl(join(dir, "member.jsonl.gz"))).toThrow(CorruptRecordsError);
    const checksum = members('{"key":"a"}\n', '{"key":"c"}\n');
    const at = gz('{"key":"a"}\n').length - 8;
    checksum[at] = checksum[at]! ^ 0xff;
    writeFileSync(join(dir, "crc.jsonl.gz"), checksum);
    expect(() => readJsonl(join(dir, "crc.jsonl.gz"))).toThrow(/byte 0: a gzip member whose checksum/);
    writeFileSync(join(dir, "mixed.jsonl.gz"), Buffer.concat([gz('{"key":"a"}\n'), Buffer.from('{"key":"b"}\n')]));
    expect(() => readJsonl(join(dir, "mixed.jsonl.gz"))).toThrow(/not a gzip member/);
  });

  it("reads members bigger than a read chunk, and a member of `gzip -N` with the file name in its header", () => {
    const file = join(temp(), "big.jsonl.gz");
    const big = { key: "b", text: randomBytes(3 << 19).toString("base64") };
    const named = gz('{"key":"n"}\n');
    // FNAME: flag 8, a zero-terminated name after the 10-byte header
    const withName = Buffer.concat([
      named.subarray(0, 3),
      Buffer.from([8]),
      named.subarray(4, 10),
      Buffer.from("r.jsonl\0"),
      named.subarray(10),
    ]);
    writeFileSync(file, Buffer.concat([gz(`{"key":"a"}\n${JSON.stringify(big)}\n`), withName]));
    expect(gz(JSON.stringify(big)).length).toBeGreaterThan(1 << 20);
    expect(readJsonl<{ key: string }>(file).rows.map((row) => row.key)).toEqual(["a", "b", "n"]);
  });

  it("reads a missing file as empty", () => {
    expect(readJsonl(join(temp(), "none.jsonl.gz"))).toEqual({ rows: [], tornBytes: 0 });
    expect(countRows(join(temp(), "none.jsonl.gz"))).toBe(0);
  });
});

describe("results store: plain JSON lines of runs made before compression", () => {
  it("reads them with the same reader, a torn last line (cut, or garbage that kept its newline) left out", () => {
    const dir = temp();
    const cases: [string, unknown[], number][] = [
      ['{"key":"a"}\n{"key":"b"}\n', [{ key: "a" }, { key: "b" }], 0],
      ['{"key":"a"}\n{"key":"b","res', [{ key: "a" }], 15],
      ['{"key":"a"}\n{"key":\n', [{ key: "a" }], 8],
      [
        `{"key":"a"}\n${JSON.stringify({ key: "b", text: "x".repeat(3 << 20) })}\n`,
        [{ key: "a" }, { key: "b", text: "x".repeat(3 << 20) }],
        0,
      ],
      ["", [], 0],
    ];
    cases.forEach(([text, rows, torn], index) => {
      const file = join(dir, `${index}.jsonl`);
      writeFileSync(file, text);
      expect(readJsonl(file)).toEqual({ rows, tornBytes: torn });
      expect(tornBytes(file)).toBe(torn);
      expect(countRows(file)).toBe(text.split("\n").length - 1);
    });
    const damaged = join(dir, "damaged.jsonl");
    writeFileSync(damaged, '{"key":"a"}\nnot json\n{"key":"c"}\n');
    expect(() => forEachJsonl(damaged, () => {})).toThrow(`${damaged}:2: not valid JSON`);
  });

  it("a resume compresses an older run's plain file (its torn line dropped) and appends to that", () => {
    const dir = temp();
    writeFileSync(join(dir, PLAIN_RUN_FILES.records), '{"key":"a"}\n{"key":"b"}\n{"key":"c","res');
    expect(runFile(dir, "records")).toBe(join(dir, PLAIN_RUN_FILES.records));
    const appender = continueRunFile(dir, "records");
    appender.append({ key: "d" });
    appender.close();
    expect(existsSync(join(dir, PLAIN_RUN_FILES.records))).toBe(false);
    expect(runFile(dir, "records")).toBe(join(dir, RUN_FILES.records));
    expect(gunzipSync(readFileSync(join(dir, RUN_FILES.records))).toString()).toBe(
      '{"key":"a"}\n{"key":"b"}\n{"key":"d"}\n',
    );
  });
});

describe("results store: files", () => {
  it("writes JSON atomically and makes sortable, readable run ids", () => {
    const file = join(temp(), "deep", "run.json");
    writeJsonAtomic(file, { a: 1 });
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ a: 1 });
    const id = newRunId("sim:slm-3b", new Date("2026-11-23T03:15:09Z"));
    expect(id).toMatch(/^20261123-031509-sim-slm-3b-[a-z0-9]{1,4}$/);
  });

  it("lists run folders, not hidden ones (a merge's staging folder)", () => {
    const root = temp();
    writeJsonAtomic(join(root, "20261125-run-a", "run.json"), {});
    writeJsonAtomic(join(root, ".merging-20261125-run-b", "run.json"), {});
    expect(listRunIds(root)).toEqual(["20261125-run-a"]);
  });
});
