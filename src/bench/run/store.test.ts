import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  CorruptRecordsError,
  forEachJsonl,
  JsonlAppender,
  listRunIds,
  newRunId,
  readJsonl,
  tornTailBytes,
  truncateTorn,
  writeJsonAtomic,
} from "./store.ts";

const temp = () => mkdtempSync(join(tmpdir(), "store-"));

describe("results store", () => {
  it("appends whole lines and reads them back", () => {
    const file = join(temp(), "records.jsonl");
    const appender = new JsonlAppender(file);
    appender.append({ key: "a" });
    appender.append({ key: "b", nested: { text: "line\nbreak" } });
    appender.close();
    expect(readJsonl(file)).toEqual({
      rows: [{ key: "a" }, { key: "b", nested: { text: "line\nbreak" } }],
      tornBytes: 0,
    });
  });

  it("treats a last line cut off mid-write as torn, and truncation restores a clean file", () => {
    const file = join(temp(), "records.jsonl");
    writeFileSync(file, '{"key":"a"}\n{"key":"b","res');
    const read = readJsonl<{ key: string }>(file);
    expect(read.rows.map((row) => row.key)).toEqual(["a"]);
    expect(read.tornBytes).toBe(Buffer.byteLength('{"key":"b","res'));
    truncateTorn(file, read.tornBytes);
    appendFileSync(file, '{"key":"c"}\n');
    expect(readFileSync(file, "utf8")).toBe('{"key":"a"}\n{"key":"c"}\n');
  });

  it("treats a garbage last line that kept its newline as torn too", () => {
    const file = join(temp(), "records.jsonl");
    writeFileSync(file, '{"key":"a"}\n{"key":\n');
    expect(readJsonl(file)).toEqual({ rows: [{ key: "a" }], tornBytes: Buffer.byteLength('{"key":\n') });
  });

  it("refuses a file damaged before its last line, naming file:line", () => {
    const file = join(temp(), "records.jsonl");
    writeFileSync(file, '{"key":"a"}\nnot json\n{"key":"c"}\n');
    expect(() => readJsonl(file)).toThrow(CorruptRecordsError);
    expect(() => readJsonl(file)).toThrow(`${file}:2: not valid JSON`);
  });

  it("reads a missing file as empty", () => {
    expect(readJsonl(join(temp(), "none.jsonl"))).toEqual({ rows: [], tornBytes: 0 });
  });

  it("writes JSON atomically and makes sortable, readable run ids", () => {
    const file = join(temp(), "deep", "run.json");
    writeJsonAtomic(file, { a: 1 });
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ a: 1 });
    const id = newRunId("sim:slm-3b", new Date("2026-11-23T03:15:09Z"));
    expect(id).toMatch(/^20261123-031509-sim-slm-3b-[a-z0-9]{1,4}$/);
  });
});

describe("forEachJsonl (streaming)", () => {
  const rows = (file: string) => {
    const seen: unknown[] = [];
    const torn = forEachJsonl(file, (row) => seen.push(row));
    return { seen, torn };
  };

  it("reads what readJsonl reads, across chunk boundaries, with the same torn-line rules", () => {
    const dir = temp();
    const big = { key: "b", text: "x".repeat(3 << 20) };
    const cases = [
      '{"key":"a"}\n',
      `{"key":"a"}\n${JSON.stringify(big)}\n{"key":"c"}\n`,
      '{"key":"a"}\n{"key":"b","res',
      '{"key":"a"}\n{"key":\n',
      "",
    ];
    cases.forEach((text, index) => {
      const file = join(dir, `${index}.jsonl`);
      writeFileSync(file, text);
      const expected = readJsonl(file);
      expect(rows(file)).toEqual({ seen: expected.rows, torn: expected.tornBytes });
    });
  });

  it("refuses a damaged line before the last one, naming file:line", () => {
    const file = join(temp(), "records.jsonl");
    writeFileSync(file, '{"key":"a"}\nnot json\n{"key":"c"}\n');
    expect(() => rows(file)).toThrow(`${file}:2: not valid JSON`);
  });
});

describe("tornTailBytes (from the end only)", () => {
  it("finds the same torn tail as a full read, across read-chunk boundaries", () => {
    const dir = temp();
    const long = JSON.stringify({ key: "b", text: "y".repeat(200_000) });
    const cases = [
      "",
      '{"key":"a"}\n',
      '{"key":"a"}\n{"key":"b","res',
      '{"key":"a"}\n{"key":\n',
      '{"key":\n',
      '{"key":"a',
      `${long}\n`,
      `{"key":"a"}\n${long.slice(0, 150_000)}`,
      `{"key":"a"}\n${long.slice(0, 150_000)}\n`,
      `${long}\n${long.slice(0, 70_000)}`,
      '{"key":"a"}\n\n',
    ];
    cases.forEach((text, index) => {
      const file = join(dir, `${index}.jsonl`);
      writeFileSync(file, text);
      expect([index, tornTailBytes(file)]).toEqual([index, readJsonl(file).tornBytes]);
    });
    expect(tornTailBytes(join(dir, "none.jsonl"))).toBe(0);
  });
});

describe("listRunIds", () => {
  it("lists run folders, not hidden ones (a merge's staging folder)", () => {
    const root = temp();
    writeJsonAtomic(join(root, "20261125-run-a", "run.json"), {});
    writeJsonAtomic(join(root, ".merging-20261125-run-b", "run.json"), {});
    expect(listRunIds(root)).toEqual(["20261125-run-a"]);
  });
});
