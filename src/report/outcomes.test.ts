import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { PLAIN_RUN_FILES, RUN_FILES } from "../bench/run/store.ts";
import { readRunLines, writeRunLines } from "../bench/run/testing/run-lines.ts";
import { OutcomesError } from "./errors.ts";
import { BINARY_METRICS, POOLED_METRICS } from "./metrics.ts";
import {
  binaryRate,
  decodeBinary,
  decodePooled,
  encodeBinary,
  encodePooled,
  loadOutcomes,
  pooledRate,
  writeOutcomesFile,
} from "./outcomes.ts";
import { loadRun } from "./runs.ts";
import { syntheticRun, writeSyntheticRun } from "./testing/synthetic-run.ts";

const synthetic = () =>
  syntheticRun({
    id: "run-o",
    configs: [
      { name: "onsetlab", succeed: [0, 1, 2, 5, 8] },
      { name: "native", succeed: [1, 2, 3], agent: { strategy: "native" } },
    ],
    items: 10,
  });

function onDisk() {
  const root = mkdtempSync(join(tmpdir(), "outcomes-"));
  const dir = writeSyntheticRun(root, synthetic());
  return { root, dir, run: loadRun("run-o", root) };
}

function catching(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}

describe("outcome encoding", () => {
  it("round-trips binary and pooled values", () => {
    const binary = [true, false, null, true];
    expect(encodeBinary(binary)).toBe("10.1");
    expect(decodeBinary("10.1")).toEqual(binary);
    expect(
      encodePooled([
        [2, 3],
        [0, 0],
      ]),
    ).toBe("2/3 0/0");
    expect(decodePooled("2/3 0/0")).toEqual([
      [2, 3],
      [0, 0],
    ]);
    expect(binaryRate(binary)).toMatchObject({ k: 2, n: 3 });
    expect(
      pooledRate([
        [2, 3],
        [1, 4],
      ]),
    ).toMatchObject({ k: 3, n: 7 });
  });
});

describe("loadOutcomes", () => {
  it("counts every metric exactly as summary.json does", () => {
    const { run } = onDisk();
    const outcomes = loadOutcomes(run);
    expect(outcomes.keys).toEqual(run.manifest.dataset.itemIds.map((id) => `${id}#0`));
    for (const entry of outcomes.entries) {
      const row = run.summary.rows.find((r) => r.model === entry.model && r.config === entry.config)!;
      for (const metric of BINARY_METRICS) {
        const { k, n } = binaryRate(decodeBinary(entry.binary[metric.name]));
        expect([metric.name, k, n]).toEqual([metric.name, row[metric.name].k, row[metric.name].n]);
      }
      for (const metric of POOLED_METRICS) {
        const { k, n } = pooledRate(decodePooled(entry.pooled[metric.name]));
        expect([metric.name, k, n]).toEqual([metric.name, row[metric.name].k, row[metric.name].n]);
      }
    }
    expect(outcomes.entries.find((e) => e.config === "onsetlab")!.binary.taskSuccess).toBe("1110010010");
  });

  it("reads an older run's plain records.jsonl as it reads records.jsonl.gz", () => {
    const { dir, run } = onDisk();
    const fromRecords = loadOutcomes(run);
    writeFileSync(join(dir, PLAIN_RUN_FILES.records), `${readRunLines(dir, "records").join("\n")}\n`);
    rmSync(join(dir, RUN_FILES.records));
    expect(loadOutcomes(run)).toEqual(fromRecords);
  });

  it("reads outcomes.json once records.jsonl.gz is gone", () => {
    const { dir, run } = onDisk();
    const fromRecords = loadOutcomes(run);
    writeOutcomesFile(run, fromRecords);
    rmSync(join(dir, RUN_FILES.records));
    expect(loadOutcomes(run)).toEqual(fromRecords);
  });

  it("refuses an outcomes.json that does not line up with the run's items", () => {
    const { dir, run } = onDisk();
    const outcomes = loadOutcomes(run);
    outcomes.entries[0]!.binary.taskSuccess = "101";
    writeOutcomesFile(run, outcomes);
    rmSync(join(dir, RUN_FILES.records));
    expect(() => loadOutcomes(run)).toThrow(/taskSuccess has 3 values for 10 keys/);
  });

  it("refuses an incomplete run, naming what is missing", () => {
    const { dir, run } = onDisk();
    const lines = readRunLines(dir, "records");
    writeRunLines(dir, "records", lines.slice(0, -1));
    // a torn last member, as a killed run leaves it
    appendFileSync(join(dir, RUN_FILES.records), gzipSync(`${lines.at(-1)}\n`).subarray(0, 40));
    const error = catching(() => loadOutcomes(run));
    expect(error).toBeInstanceOf(OutcomesError);
    expect((error as OutcomesError).code).toBe("RUN_INCOMPLETE");
    expect((error as Error).message).toMatch(/native has no record for 1 of 10 items \(first: gh-009#0\)/);
  });

  it("refuses a damaged line that is not the last", () => {
    const { dir, run } = onDisk();
    const lines = readRunLines(dir, "records");
    lines[3] = "{not json";
    writeRunLines(dir, "records", lines);
    expect(() => loadOutcomes(run)).toThrow(/records\.jsonl\.gz:4: not valid JSON/);
  });

  it("says when a run has neither records nor outcomes", () => {
    const { dir, run } = onDisk();
    rmSync(join(dir, RUN_FILES.records));
    expect(() => loadOutcomes(run)).toThrow(/neither records\.jsonl\.gz nor outcomes\.json/);
  });
});
