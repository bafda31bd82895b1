/**
 * The published calibration report (reports/calibration/) is exactly what `pnpm report` makes from the
 * committed run folders (results/calibration/<run-id>/: run.json, summary.json, outcomes.json), and the
 * committed baselines hold against those runs. When the numbers move on purpose, regenerate all of it
 * with `bash reports/regenerate-calibration.sh`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readBaseline } from "../../src/report/baseline.ts";
import { checkSameMatrix, runGate } from "../../src/report/gate.ts";
import { BINARY_METRICS, POOLED_METRICS } from "../../src/report/metrics.ts";
import { loadOutcomes, mergeOutcomes } from "../../src/report/outcomes.ts";
import { buildReport } from "../../src/report/report.ts";
import { loadRunSet } from "../../src/report/runs.ts";
import { reportFiles } from "../../src/report/write.ts";

const REPORT = "reports/calibration";
/** The committed run folders a report folder was made from (its summary.json names them). */
function refsOf(report: string): string[] {
  // a report of several runs names them all; a report of one run, its own
  const summary = JSON.parse(readFileSync(join(report, "summary.json"), "utf8")) as {
    runIds?: string[];
    runId: string;
  };
  return (summary.runIds ?? [summary.runId]).map((id) => `results/calibration/${id}`);
}
const refs = refsOf(REPORT);
const REGENERATE = "regenerate with `bash reports/regenerate-calibration.sh` if the change is meant";

describe("the committed calibration report", () => {
  it("is made from the committed runs of every simulator profile", () => {
    const set = loadRunSet(refs);
    expect(set.models).toEqual(["sim:oracle", "sim:slm-3b", "sim:slm-7b", "sim:chaos"]);
    // runs made before run.json stored the provenance: read from their `simulated`
    expect(set.sources.every((source) => source.provenance.kind === "simulated")).toBe(true);
  });

  // the calibration report, and the plus-ablation and repeats reports of sim:slm-3b made beside it
  it.each([REPORT, "reports/plus-ablation", "reports/repeats"])(
    "%s is reproduced byte for byte by `pnpm report` on the committed run folders",
    (report) => {
      const files = reportFiles(buildReport(loadRunSet(refsOf(report))));
      expect(readdirSync(report).sort(), REGENERATE).toEqual([...files.keys()].sort());
      for (const [name, content] of files) {
        expect(readFileSync(join(report, name), "utf8"), `${report}/${name} differs: ${REGENERATE}`).toBe(content);
      }
    },
  );

  it.each([
    ["reports/baselines/calibration.json", refs],
    ["reports/baselines/sim-slm-3b-default.json", refs.filter((ref) => ref.includes("sim-slm-3b"))],
  ])("holds its baseline %s", async (file, runs) => {
    const set = loadRunSet(runs);
    const outcomes = mergeOutcomes(set.runs.map(loadOutcomes));
    const baseline = readBaseline(file);
    checkSameMatrix(baseline, set, outcomes, file);
    const result = runGate(baseline, set, outcomes);
    // one check per gated metric of every model × configuration
    expect(result.checks.length).toBe(outcomes.entries.length * (BINARY_METRICS.length + POOLED_METRICS.length));
    expect(result.failures).toEqual([]);
  });
});
