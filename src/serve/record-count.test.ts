import { appendFileSync, mkdtempSync, renameSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RecordCount } from "./record-count.ts";

let dir: string;
let file: string;

const line = (itemId: string) => `${JSON.stringify({ key: `sim:oracle|onsetlab|${itemId}|0`, itemId })}\n`;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "record-count-"));
  file = join(dir, "records.jsonl");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("RecordCount", () => {
  it("counts what was appended since, none for a missing file, again after a cut tail", () => {
    const count = new RecordCount(file);
    expect(count.count()).toBe(0);
    writeFileSync(file, line("gh-1") + line("gh-2"));
    expect(count.count()).toBe(2);
    appendFileSync(file, `${line("gh-3")}{"torn`);
    expect(count.count()).toBe(3);
    truncateSync(file, Buffer.byteLength(line("gh-1")));
    expect(count.count()).toBe(1);
  });

  it("counts again when the file was replaced, even by a longer one (a resume rewrote it)", () => {
    writeFileSync(file, line("gh-1") + line("gh-2"));
    const count = new RecordCount(file);
    expect(count.count()).toBe(2);
    const replacement = join(dir, "records.jsonl.rewrite.tmp");
    writeFileSync(replacement, line("gh-2-again") + line("gh-1") + line("gh-3"));
    renameSync(replacement, file);
    expect(count.count()).toBe(3);
  });
});
