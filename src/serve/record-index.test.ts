import { appendFileSync, mkdtempSync, renameSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RecordIndex } from "./record-index.ts";

let dir: string;
let file: string;

/** A record line with the fields the index reads (and a body it does not). */
function line(itemId: string, ok: boolean, config = "onsetlab"): string {
  const record = {
    key: `sim:oracle|${config}|${itemId}|0`,
    itemId,
    model: "sim:oracle",
    config,
    repeat: 0,
    category: "single",
    session: { exposure: "session", servers: ["github"] },
    result: { query: `query of ${itemId}`, padding: "é".repeat(50) },
    score: { taskSuccess: ok, failures: ok ? [] : ["wrong_tool"] },
  };
  return `${JSON.stringify(record)}\n`;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "record-index-"));
  file = join(dir, "records.jsonl");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("RecordIndex", () => {
  it("indexes each record and reads one back from its line alone", () => {
    writeFileSync(file, line("gh-1", true) + line("gh-2", false));
    const index = new RecordIndex(file);
    expect(index.rows().map((row) => [row.itemId, row.taskSuccess, row.failureClass])).toEqual([
      ["gh-1", true, undefined],
      ["gh-2", false, "wrong_tool"],
    ]);
    expect(index.record("sim:oracle|onsetlab|gh-2|0")?.result.query).toBe("query of gh-2");
    expect(index.record("sim:oracle|onsetlab|gh-9|0")).toBeUndefined();
  });

  it("reads only what was appended since, and skips a line still being written", () => {
    writeFileSync(file, line("gh-1", true));
    const index = new RecordIndex(file);
    expect(index.rows()).toHaveLength(1);
    const next = line("gh-2", false);
    appendFileSync(file, next.slice(0, 40));
    expect(index.rows()).toHaveLength(1);
    appendFileSync(file, next.slice(40));
    expect(index.rows().map((row) => row.itemId)).toEqual(["gh-1", "gh-2"]);
    expect(index.record("sim:oracle|onsetlab|gh-2|0")?.itemId).toBe("gh-2");
  });

  it("starts again when the file shrank (a resume cut a torn tail)", () => {
    writeFileSync(file, line("gh-1", true) + line("gh-2", false));
    const index = new RecordIndex(file);
    expect(index.rows()).toHaveLength(2);
    truncateSync(file, Buffer.byteLength(line("gh-1", true)));
    expect(index.rows().map((row) => row.itemId)).toEqual(["gh-1"]);
  });

  it("starts again when the file was replaced, even by a longer one (a resume rewrote it)", () => {
    writeFileSync(file, line("gh-1", false) + line("gh-2", true));
    const index = new RecordIndex(file);
    expect(index.rows()).toHaveLength(2);
    const replacement = join(dir, "records.jsonl.rewrite.tmp");
    writeFileSync(replacement, line("gh-2", true) + line("gh-1", true) + line("gh-3", true));
    renameSync(replacement, file);
    expect(index.rows().map((row) => [row.itemId, row.taskSuccess])).toEqual([
      ["gh-2", true],
      ["gh-1", true],
      ["gh-3", true],
    ]);
    expect(index.record("sim:oracle|onsetlab|gh-1|0")?.score.taskSuccess).toBe(true);
  });
});
