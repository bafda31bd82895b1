import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RUN_FILES } from "../bench/run/store.ts";
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

  it("reads outcomes.json once records.jsonl is gone", () => {
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
    const file = join(dir, RUN_FILES.records);
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    writeFileSync(file, `${lines.slice(0, -1).join("\n")}\n`);
    // a torn last line, as a killed run leaves it
    appendFileSync(file, lines.at(-1)!.slice(0, 40));
    const error = catching(() => loadOutcomes(run));
    expect(error).toBeInstanceOf(OutcomesError);
    expect((error as OutcomesError).code).toBe("RUN_INCOMPLETE");
    expect((error as Error).message).toMatch(/native has no record for 1 of 10 items \(first: gh-009#0\)/);
  });

  it("refuses a damaged line that is not the last", () => {
    const { dir, run } = onDisk();
    const file = join(dir, RUN_FILES.records);
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    lines[3] = "{not json";
    writeFileSync(file, `${lines.join("\n")}\n`);
    expect(() => loadOutcomes(run)).toThrow(/records\.jsonl:4: not valid JSON/);
  });

  it("says when a run has neither records nor outcomes", () => {
    const { dir, run } = onDisk();
    rmSync(join(dir, RUN_FILES.records));
    expect(() => loadOutcomes(run)).toThrow(/neither records\.jsonl nor outcomes\.json/);
  });
});
