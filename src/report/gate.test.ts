import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ITEM_METRICS } from "../bench/scoring/metrics.ts";
import { type Baseline, buildBaseline, DEFAULT_POLICY, type GatePolicy } from "./baseline.ts";
import { BaselineError } from "./errors.ts";
import { checkSameMatrix, runGate } from "./gate.ts";
import { renderGate } from "./gate-text.ts";
import { loadOutcomes, type Outcomes } from "./outcomes.ts";
import { loadRunSet } from "./runs.ts";
import { type SyntheticConfig, syntheticRun, writeSyntheticRun } from "./testing/synthetic-run.ts";

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/** A run on disk and its outcomes, as the gate reads them. */
function gated(options: { simulated: boolean; items: number; configs: SyntheticConfig[]; id?: string }) {
  const root = mkdtempSync(join(tmpdir(), "gate-"));
  const synthetic = syntheticRun({
    id: options.id ?? "run",
    model: options.simulated ? "sim:slm-3b" : "qwen2.5:3b",
    ...options,
  });
  writeSyntheticRun(root, synthetic);
  const set = loadRunSet([synthetic.run.id], root);
  const outcomes: Outcomes = loadOutcomes(set.runs[0]!);
  return { set, outcomes };
}

function baselineOf(options: Parameters<typeof gated>[0], policy: GatePolicy = DEFAULT_POLICY): Baseline {
  const { set, outcomes } = gated(options);
  return buildBaseline(set, outcomes, policy, "reports/baselines/test.json");
}

describe("the gate on a deterministic (simulated) model", () => {
  const configs = (succeed: number[]): SyntheticConfig[] => [{ name: "onsetlab", succeed }];

  it("holds when every item comes out the same", () => {
    const baseline = baselineOf({ simulated: true, items: 20, configs: configs(range(0, 12)) });
    const run = gated({ simulated: true, items: 20, configs: configs(range(0, 12)) });
    const result = runGate(baseline, run.set, run.outcomes);
    // one check per item metric
    expect(result.checks.length).toBe(ITEM_METRICS.length);
    expect(result.failures).toEqual([]);
    expect(renderGate(result, "gate")).toMatch(
      new RegExp(`all ${ITEM_METRICS.length} checks hold .*exact match required for sim:slm-3b`),
    );
  });

  it("fails on any changed item, even one that leaves the count alone", () => {
    const baseline = baselineOf({ simulated: true, items: 20, configs: configs(range(0, 12)) });
    // item 0 now fails, item 12 now succeeds: still 12/20
    const run = gated({ simulated: true, items: 20, configs: configs(range(1, 13)) });
    const failures = runGate(baseline, run.set, run.outcomes).failures;
    const task = failures.find((failure) => failure.metric === "taskSuccess")!;
    expect(task.change.before.k).toBe(12);
    expect(task.change.after.k).toBe(12);
    expect(task.reasons[0]).toMatch(
      /^2 item outcomes changed in a deterministic run \(1 better, 1 worse: gh-000#0, gh-012#0\)/,
    );
    expect(task.verdict).toBe("regressed");
  });

  it("calls a change that is only better an improvement, still to be taken into the baseline", () => {
    const baseline = baselineOf({ simulated: true, items: 20, configs: configs(range(0, 12)) });
    const run = gated({ simulated: true, items: 20, configs: configs(range(0, 14)) });
    const result = runGate(baseline, run.set, run.outcomes);
    const task = result.failures.find((failure) => failure.metric === "taskSuccess")!;
    expect([task.verdict, task.reasons[0]]).toEqual([
      "improved",
      "2 item outcomes changed in a deterministic run (2 better, 0 worse: gh-012#0, gh-013#0)",
    ]);
    expect(result.failures.filter((failure) => failure.verdict === "regressed")).toEqual([]);
    const text = renderGate(result, "gate");
    expect(text).toContain("IMPROVED sim:slm-3b × onsetlab · task success: 12/20");
    expect(text).toMatch(/checks failed: 0 regressed, \d+ improved/);
  });
});

describe("the gate on a live model", () => {
  const configs = (succeed: number[]): SyntheticConfig[] => [{ name: "onsetlab", succeed }];

  it("lets a drop within the tolerance pass", () => {
    const baseline = baselineOf({ simulated: false, items: 200, configs: configs(range(0, 150)) });
    const run = gated({ simulated: false, items: 200, configs: configs(range(0, 147)) });
    expect(runGate(baseline, run.set, run.outcomes).failures).toEqual([]);
  });

  it("lets a large drop pass when it is not significant", () => {
    const baseline = baselineOf({ simulated: false, items: 10, configs: configs(range(0, 8)) });
    const run = gated({ simulated: false, items: 10, configs: configs(range(0, 6)) });
    const result = runGate(baseline, run.set, run.outcomes);
    expect(result.checks.find((c) => c.metric === "taskSuccess")!.change.pValue).toBeGreaterThan(0.05);
    expect(result.failures).toEqual([]);
  });

  it("fails a significant drop beyond the tolerance, printing old, new and the interval", () => {
    const baseline = baselineOf({ simulated: false, items: 200, configs: configs(range(0, 150)) });
    const run = gated({ simulated: false, items: 200, configs: configs(range(0, 120)) });
    const result = runGate(baseline, run.set, run.outcomes);
    expect(result.failures.map((failure) => failure.metric)).toContain("taskSuccess");
    const text = renderGate(result, "gate");
    expect(text).toMatch(
      /FAIL qwen2\.5:3b × onsetlab · task success: 150\/200 75\.0% \[[\d.–]+\] → 120\/200 60\.0% \[[\d.–]+\]; Δ −15\.0 pp \[−[\d.]+, −[\d.]+\], p = <0\.001 over 200 paired items — dropped by 15\.0 points/,
    );
  });

  it("holds on a significant rise: an improvement is no regression", () => {
    const baseline = baselineOf({ simulated: false, items: 200, configs: configs(range(0, 120)) });
    const run = gated({ simulated: false, items: 200, configs: configs(range(0, 150)) });
    const result = runGate(baseline, run.set, run.outcomes);
    const task = result.checks.find((check) => check.metric === "taskSuccess")!;
    expect(task.change.pValue).toBeLessThan(0.05);
    expect([task.ok, task.verdict]).toEqual([true, "holds"]);
  });

  it("fails a metric below its absolute floor even without a significant drop", () => {
    const policy = { ...DEFAULT_POLICY, floors: { taskSuccess: 0.8 } };
    const baseline = baselineOf({ simulated: false, items: 20, configs: configs(range(0, 15)) }, policy);
    const run = gated({ simulated: false, items: 20, configs: configs(range(0, 15)) });
    const failures = runGate(baseline, run.set, run.outcomes).failures;
    expect(failures.map((f) => [f.metric, f.reasons])).toEqual([["taskSuccess", ["below the floor 0.8"]]]);
  });
});

describe("checkSameMatrix", () => {
  it("refuses a run of another matrix or dataset, saying which", () => {
    const baseline = baselineOf({ simulated: true, items: 20, configs: [{ name: "onsetlab", succeed: [] }] });
    const other = gated({
      simulated: true,
      items: 20,
      configs: [
        { name: "onsetlab", succeed: [] },
        { name: "native", succeed: [], agent: { strategy: "native" } },
      ],
    });
    expect(() => checkSameMatrix(baseline, other.set, other.outcomes, "b.json")).toThrow(
      /b\.json is for another matrix: configurations onsetlab in the baseline, onsetlab, native in run run/,
    );
    const live = gated({ simulated: false, items: 20, configs: [{ name: "onsetlab", succeed: [] }] });
    expect(() => checkSameMatrix(baseline, live.set, live.outcomes, "b.json")).toThrow(BaselineError);
    const moved = { ...baseline, dataset: { hash: "other", items: 20 } };
    const same = gated({ simulated: true, items: 20, configs: [{ name: "onsetlab", succeed: [] }] });
    expect(() => checkSameMatrix(moved, same.set, same.outcomes, "b.json")).toThrow(/dataset hash other/);
    expect(() => checkSameMatrix(baseline, same.set, same.outcomes, "b.json")).not.toThrow();
  });

  it("refuses a run of another seed in one line, and says nothing for a baseline that recorded none", () => {
    const baseline = baselineOf({ simulated: true, items: 20, configs: [{ name: "onsetlab", succeed: [] }] });
    expect(baseline.seed).toBe(1);
    const same = gated({ simulated: true, items: 20, configs: [{ name: "onsetlab", succeed: [] }] });
    const reseeded = { ...baseline, seed: 2 };
    const refusal = (() => {
      try {
        checkSameMatrix(reseeded, same.set, same.outcomes, "b.json");
      } catch (error) {
        return error as BaselineError;
      }
    })();
    expect(refusal).toBeInstanceOf(BaselineError);
    expect(refusal!.code).toBe("BASELINE_OTHER_SEED");
    expect(refusal!.message).toMatch(/^b\.json was made with --seed 2; run run used --seed 1: [^\n]+$/);
    const { seed: _, ...unseeded } = baseline;
    expect(() => checkSameMatrix(unseeded, same.set, same.outcomes, "b.json")).not.toThrow();
  });
});

describe("runGate notes", () => {
  it("says when a configuration resolves differently from the baseline", () => {
    const baseline = baselineOf({ simulated: true, items: 5, configs: [{ name: "onsetlab", succeed: [0] }] });
    const run = gated({
      simulated: true,
      items: 5,
      configs: [{ name: "onsetlab", succeed: [0], agent: { rescue: false } }],
    });
    expect(runGate(baseline, run.set, run.outcomes).notes).toEqual([
      'sim:slm-3b × onsetlab resolves differently from the baseline: rescue "extended" → "off"',
    ]);
  });
});
