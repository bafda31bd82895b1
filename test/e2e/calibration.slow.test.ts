/**
 * The simulator's calibration measured by the scorer (issue 5): every profile runs over the whole dataset
 * through the pipeline's ReWOO planner (a bench run of configuration `onsetlab-plus-rewoo`), and for each error type
 * the count the scorer's planner-output classifier MEASURES is compared with the count the simulator's
 * effective rates EXPECT on those very prompts (SimEngine.analyse, summed per unit).
 *
 * - sim:slm-3b: each type's measured count lies inside the two-sided binomial interval of its
 *   expected rate (n = the type's units: planner outputs, or gold calls written), at the level that holds
 *   all types' intervals together at 95% (scripts/calibration/judge.ts).
 * - What is compared is what the classifier can see by construction (scripts/calibration/observable.ts
 *   says how, per type): e.g. a wrong value only on items whose every scalar gold argument has one
 *   acceptable value and no {regex}/{any} alternative — a near miss a matcher still accepts is no mistake
 *   to the scorer; prose only around steps; call-level types only in outputs without a malformed step.
 *   The units are chosen from the gold labels, the tools shown and the request-level draw, never from the
 *   classifier's verdict, and the interval is never widened past that level.
 * - sim:oracle, the control: nothing expected or drawn, for any type, on any unit; nothing measured on the
 *   observable units (an item whose gold tool the prompt did not list gets no plan from an honest model,
 *   which the classifier, judging against the gold calls, reads as a direct answer: not observable).
 * - reports/sim-calibration.md is exactly what `pnpm exec tsx scripts/calibrate-sim.ts` writes.
 */

import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { binomialInterval } from "../../scripts/calibration/binomial.ts";
import { judge } from "../../scripts/calibration/judge.ts";
import { REGENERATE_COMMAND, renderCalibrationReport } from "../../scripts/calibration/render.ts";
import { CALIBRATION_PROFILES, type CalibrationRun, calibrateProfiles } from "../../scripts/calibration/run.ts";
import type { CalibratedType, ProfileTally, TypeTally } from "../../scripts/calibration/tally.ts";
import { StatsArgumentError } from "../../src/bench/stats/index.ts";
import { SIM_ERROR_TYPES } from "../../src/models/sim/index.ts";

const REPORT = "reports/sim-calibration.md";

let run: CalibrationRun;

beforeAll(async () => {
  run = await calibrateProfiles(CALIBRATION_PROFILES);
}, 600_000);

function profile(name: string): ProfileTally {
  return run.profiles.find((tally) => tally.profile === name)!;
}

function tallyOf(name: string, type: CalibratedType): TypeTally {
  return profile(name).types.find((tally) => tally.type === type)!;
}

describe("sim:slm-3b over the whole dataset through the ReWOO planner", () => {
  it("tallies one planner request per dataset item", () => {
    expect(profile("slm-3b").requests).toBe(run.dataset.items);
    expect(run.dataset.items).toBeGreaterThan(500);
  });

  it.each(SIM_ERROR_TYPES)(
    "%s: the measured count is inside the interval of the expected rate (95% for all types)",
    (type) => {
      const tally = tallyOf("slm-3b", type);
      const { observable } = tally;
      const verdict = judge(observable);
      const detail =
        `measured ${observable.measured} of ${observable.n} (drawn ${observable.drawn}); expected rate ` +
        `${verdict.expectedRate.toFixed(4)}, interval ${verdict.interval.lo}–${verdict.interval.hi}; disagreements: ` +
        JSON.stringify(tally.disagreements);
      // the type is exercised on this dataset: the comparison can fail
      expect(observable.n, detail).toBeGreaterThan(100);
      expect(observable.expected, detail).toBeGreaterThan(0);
      expect(verdict.interval.hi, detail).toBeLessThan(observable.n);
      expect(verdict.inside, detail).toBe(true);
    },
  );

  it("measures no type_error, which the simulator never injects", () => {
    expect(tallyOf("slm-3b", "type_error").all.measured).toBe(0);
  });

  it("injects mistakes the scorer cannot see, and leaves them out of the comparison", () => {
    // wrong values that a regex/any alternative or a second listed value accepts; prose beside no step
    for (const type of ["wrong_value", "prose_around_call"] as const) {
      const { all, observable } = tallyOf("slm-3b", type);
      expect(all.drawn - all.measured, type).toBeGreaterThan(0);
      expect(observable.measured, type).toBe(observable.drawn);
    }
  });
});

describe("sim:oracle, the control", () => {
  it.each([...SIM_ERROR_TYPES, "type_error" as const])("%s: nothing expected, drawn or measured", (type) => {
    const { all, observable } = tallyOf("oracle", type);
    expect(all.n).toBeGreaterThan(0);
    expect({ expected: all.expected, drawn: all.drawn, measured: observable.measured }).toEqual({
      expected: 0,
      drawn: 0,
      measured: 0,
    });
  });
});

describe(REPORT, () => {
  it(`is what \`${REGENERATE_COMMAND}\` writes`, () => {
    expect(readFileSync(REPORT, "utf8"), `${REPORT} is stale: run ${REGENERATE_COMMAND}`).toBe(
      renderCalibrationReport(run),
    );
  });

  it("labels every profile's table simulated", () => {
    const headings = renderCalibrationReport(run)
      .split("\n")
      .filter((line) => line.startsWith("#"));
    expect(headings.length).toBe(CALIBRATION_PROFILES.length + 2);
    expect(headings.filter((line) => !line.includes("(simulated)"))).toEqual(["## How it is measured"]);
  });
});

describe("binomialInterval", () => {
  it.each([
    // [n, p, lo, hi]: the counts outside both 2.5% tails of Bin(n, p)
    [100, 0.5, 40, 60],
    [10, 0.1, 0, 3],
    [610, 0.01, 2, 11],
    [20, 0.95, 17, 20],
  ])("Bin(%i, %f) → %i–%i", (n, p, lo, hi) => {
    expect(binomialInterval(n, p)).toEqual({ lo, hi });
  });

  it("keeps exactly the counts whose tails are both at least 2.5%", () => {
    const n = 300;
    const p = 0.07;
    const pmf = Array.from({ length: n + 1 }, (_, k) =>
      Math.exp(logChoose(n, k) + k * Math.log(p) + (n - k) * Math.log(1 - p)),
    );
    const below = (k: number) => pmf.slice(0, k + 1).reduce((sum, value) => sum + value, 0);
    const above = (k: number) => pmf.slice(k).reduce((sum, value) => sum + value, 0);
    const { lo, hi } = binomialInterval(n, p);
    expect(below(lo)).toBeGreaterThanOrEqual(0.025);
    expect(below(lo - 1)).toBeLessThan(0.025);
    expect(above(hi)).toBeGreaterThanOrEqual(0.025);
    expect(above(hi + 1)).toBeLessThan(0.025);
  });

  it("handles rates of 0 and 1 and large n without underflow", () => {
    expect(binomialInterval(500, 0)).toEqual({ lo: 0, hi: 0 });
    expect(binomialInterval(500, 1)).toEqual({ lo: 500, hi: 500 });
    const { lo, hi } = binomialInterval(20_000, 0.3);
    expect(lo).toBeGreaterThan(5_800);
    expect(hi).toBeLessThan(6_200);
  });

  it("refuses impossible arguments", () => {
    expect(() => binomialInterval(-1, 0.5)).toThrow(StatsArgumentError);
    expect(() => binomialInterval(10, 1.5)).toThrow(StatsArgumentError);
    expect(() => binomialInterval(10, 0.5, 1)).toThrow(StatsArgumentError);
  });
});

function logChoose(n: number, k: number): number {
  let sum = 0;
  for (let i = 1; i <= k; i++) sum += Math.log(n - k + i) - Math.log(i);
  return sum;
}
