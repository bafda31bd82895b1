import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { dropRecords, RunFileRewriteError, rewriteTemporary, serverFailed } from "./retry-invalid.ts";
import type { RunRecord } from "./run-file-types.ts";
import { PLAIN_RUN_FILES, RUN_FILES, readJsonl } from "./store.ts";
import { readRunLines, writeRunLines } from "./testing/run-lines.ts";

const temp = () => mkdtempSync(join(tmpdir(), "retry-invalid-"));

/**
 * A record line as a run writes it, with its invalid reason; some are spelled as JSON.stringify would not
 * spell them (spaces, escaped characters), so a copy that re-serialises instead of copying shows.
 */
function recordLine(item: string, invalid?: string, spelled = false): string {
  const key = `qwen2.5:3b|rewoo|${item}|0`;
  const score = invalid ? `{"taskSuccess":false,"invalid":"${invalid}"}` : `{"taskSuccess":true}`;
  return spelled
    ? `{ "key": "${key}", "itemId": "${item}", "note": "caf\\u00e9 \\/", "score": ${score} }`
    : `{"key":"${key}","itemId":"${item}","score":${score}}`;
}

const key = (item: string) => `qwen2.5:3b|rewoo|${item}|0`;

/** The spans of one query as the tracer writes them: children first, the query span last. */
function querySpans(item: string, run = "run0"): string[] {
  const span = (id: string, parent: string, name: string, attributes: Record<string, unknown> = {}) =>
    JSON.stringify({ traceId: "t", spanId: id, parentSpanId: parent, name, attributes });
  return [
    span(`${item}-call`, `${item}-stage`, "text_completion qwen2.5:3b"),
    span(`${item}-tool-attempt`, `${item}-tool`, "attempt 1"),
    span(`${item}-tool`, `${item}-stage`, "execute_tool issue_read"),
    span(`${item}-stage`, `${item}-query`, "planner", { "onsetlab.stage": "planner" }),
    span(`${item}-query`, run, "query", { "onsetlab.key": key(item), "onsetlab.item_id": item }),
  ];
}

const runSpan = (id: string) => JSON.stringify({ traceId: "t", spanId: id, name: "run", attributes: {} });

/** A run folder: five records (two the server failed, one overflowed), the traces of a killed then resumed session. */
function runFolder(): { dir: string; records: string[]; traces: string[] } {
  const dir = temp();
  const records = [
    recordLine("gh-1", undefined, true),
    recordLine("gh-2", "server_error"),
    recordLine("gh-3", "context_overflow", true),
    recordLine("gh-4", "server_error", true),
    recordLine("gh-5", "output_truncated"),
  ];
  const traces = [
    ...querySpans("gh-1"),
    ...querySpans("gh-2"),
    // the first session was killed before its run span ended: its queries' parent is not in the file
    runSpan("run1"),
    ...querySpans("gh-3", "run1"),
    ...querySpans("gh-4", "run1"),
    ...querySpans("gh-5", "run1"),
    runSpan("run2"),
  ];
  writeRunLines(dir, "records", records);
  writeRunLines(dir, "traces", traces);
  return { dir, records, traces };
}

const failedKeys = (records: readonly string[]) =>
  new Set(
    records
      .map((line) => JSON.parse(line) as RunRecord)
      .filter(serverFailed)
      .map((record) => record.key),
  );

describe("dropping the records a resume runs again", () => {
  it("picks only the records the server failed, never an overflow or a cut answer", () => {
    const { records } = runFolder();
    expect([...failedKeys(records)]).toEqual([key("gh-2"), key("gh-4")]);
  });

  it("drops exactly those records and their spans; every other line is kept as written, in order", () => {
    const { dir, records, traces } = runFolder();
    const dropped = dropRecords(dir, failedKeys(records));
    expect(dropped).toEqual({ records: 2, spans: 10, outcomesRemoved: false });
    expect(readRunLines(dir, "records")).toEqual([records[0], records[2], records[4]]);
    const gone = (line: string) => /"spanId":"gh-[24]-/.test(line);
    expect(readRunLines(dir, "traces")).toEqual(traces.filter((line) => !gone(line)));
    expect(existsSync(rewriteTemporary(join(dir, RUN_FILES.records)))).toBe(false);
    expect(existsSync(rewriteTemporary(join(dir, RUN_FILES.traces)))).toBe(false);
  });

  it("leaves a file with nothing to drop as it is, byte for byte (the same file, not a copy)", () => {
    const { dir, records } = runFolder();
    const files = [RUN_FILES.records, RUN_FILES.traces].map((name) => join(dir, name));
    const before = files.map((file) => ({ bytes: readFileSync(file), inode: statSync(file).ino }));
    expect(dropRecords(dir, new Set())).toEqual({ records: 0, spans: 0, outcomesRemoved: false });
    // a key with a record but no spans (its spans were never written): the traces stay untouched
    writeRunLines(dir, "records", [...records, recordLine("gh-6", "server_error")]);
    const records2 = { bytes: readFileSync(files[0]!), inode: statSync(files[0]!).ino };
    expect(dropRecords(dir, new Set([key("gh-9")]))).toEqual({ records: 0, spans: 0, outcomesRemoved: false });
    expect({ bytes: readFileSync(files[0]!), inode: statSync(files[0]!).ino }).toEqual(records2);
    expect(dropRecords(dir, new Set([key("gh-6")])).spans).toBe(0);
    expect({ bytes: readFileSync(files[1]!), inode: statSync(files[1]!).ino }).toEqual(before[1]);
  });

  it("is not misled by what a killed rewrite left behind: its temporary file is replaced, not added to", () => {
    const { dir, records } = runFolder();
    for (const name of [RUN_FILES.records, RUN_FILES.traces]) {
      // a rewrite killed mid-member: a whole member, then half of one
      const whole = gzipSync(`${recordLine("gh-9")}\n`);
      const torn = gzipSync(`${recordLine("gh-8")}\n`).subarray(0, 12);
      writeFileSync(rewriteTemporary(join(dir, name)), Buffer.concat([whole, torn]));
    }
    dropRecords(dir, failedKeys(records));
    expect(readRunLines(dir, "records")).toEqual([records[0], records[2], records[4]]);
    expect(readRunLines(dir, "traces").some((line) => line.includes("gh-9") || line.includes("gh-8"))).toBe(false);
    expect(existsSync(rewriteTemporary(join(dir, RUN_FILES.records)))).toBe(false);
  });

  it("leaves out a torn end the killed session left, as the resume would cut it", () => {
    const { dir, records } = runFolder();
    const file = join(dir, RUN_FILES.records);
    writeFileSync(file, Buffer.concat([readFileSync(file), gzipSync(`${recordLine("gh-7")}\n`).subarray(0, 20)]));
    dropRecords(dir, failedKeys(records));
    expect(readRunLines(dir, "records")).toEqual([records[0], records[2], records[4]]);
  });

  it("compresses an older run's plain records and removes the plain file; removes outcomes.json", () => {
    const { dir, records } = runFolder();
    const plain = join(dir, PLAIN_RUN_FILES.records);
    writeFileSync(plain, `${records.join("\n")}\n`);
    // an older run has only the plain file
    const gz = join(dir, RUN_FILES.records);
    rmSync(gz);
    writeFileSync(join(dir, RUN_FILES.outcomes), "{}");
    const dropped = dropRecords(dir, failedKeys(records));
    expect(dropped).toEqual({ records: 2, spans: 10, outcomesRemoved: true });
    expect(existsSync(plain)).toBe(false);
    expect(existsSync(join(dir, RUN_FILES.outcomes))).toBe(false);
    expect(readJsonl<{ key: string }>(gz).rows.map((row) => row.key)).toEqual([key("gh-1"), key("gh-3"), key("gh-5")]);
  });

  it("a file it cannot write is a typed run error naming the file, which is left as it was", () => {
    const { dir, records } = runFolder();
    const file = join(dir, RUN_FILES.traces);
    const before = readFileSync(file);
    // a folder where the temporary file goes: the open fails as a full or read-only disk would make it
    mkdirSync(join(rewriteTemporary(file), "inside"), { recursive: true });
    const error = (() => {
      try {
        dropRecords(dir, failedKeys(records));
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(RunFileRewriteError);
    expect((error as RunFileRewriteError).message).toContain(file);
    expect(readFileSync(file)).toEqual(before);
  });
});
