import { describe, expect, it } from "vitest";
import { seededRandom } from "../../random.ts";
import { type BootstrapOptions, bootstrapPercentileCIs, type PercentileEstimate } from "./bootstrap.ts";
import { StatsArgumentError } from "./errors.ts";
import { nearestRank, percentile } from "./percentile.ts";

function bootstrapPercentileCI(values: readonly number[], p: number, options?: BootstrapOptions): PercentileEstimate {
  return bootstrapPercentileCIs(values, [p], options)[0]!;
}

/** The method spelled out: copy each resample, sort it, take the percentile; then the same of the estimates. */
function resampleAndSort(values: readonly number[], p: number, seed: number, resamples: number): PercentileEstimate {
  const random = seededRandom(seed);
  const estimates: number[] = [];
  for (let r = 0; r < resamples; r++) {
    const sample = Array.from({ length: values.length }, () => values[Math.floor(random() * values.length)]!);
    estimates.push(percentile(sample, p));
  }
  return { value: percentile(values, p), lo: percentile(estimates, 2.5), hi: percentile(estimates, 97.5) };
}

describe("percentile (nearest rank)", () => {
  it.each([
    [50, 3],
    [95, 5],
    [0, 1],
    [100, 5],
    [20, 1],
    [21, 2],
  ])("p%i of 1..5 → %i", (p, expected) => {
    expect(percentile([5, 3, 1, 4, 2], p)).toBe(expected);
  });

  it("NaN for an empty sample", () => {
    expect(percentile([], 50)).toBeNaN();
  });

  it("nearest rank stays within the sample", () => {
    expect(nearestRank(10, 95)).toBe(10);
    expect(nearestRank(10, 0)).toBe(1);
  });
});

describe("bootstrapPercentileCIs", () => {
  const latencies = Array.from({ length: 200 }, (_, i) => 100 + ((i * 37) % 101));

  it("gives the interval of resampling and sorting with the same seed, ties and every size included", () => {
    const random = seededRandom(7);
    for (let trial = 0; trial < 60; trial++) {
      const n = 1 + Math.floor(random() * 60);
      // few distinct values in some trials (many ties), all distinct in others
      const spread = trial % 2 === 0 ? 5 : 1000;
      const values = Array.from({ length: n }, () => Math.floor(random() * spread) / 4);
      const p = [0, 20, 50, 95, 100][trial % 5]!;
      expect(bootstrapPercentileCI(values, p, { seed: trial, resamples: 101 })).toEqual(
        resampleAndSort(values, p, trial, 101),
      );
    }
  });

  it("reads several percentiles off one set of resamples, each as if bootstrapped alone", () => {
    const [p50, p95] = bootstrapPercentileCIs(latencies, [50, 95], { seed: 9, resamples: 300 });
    expect(p50).toEqual(bootstrapPercentileCI(latencies, 50, { seed: 9, resamples: 300 }));
    expect(p95).toEqual(bootstrapPercentileCI(latencies, 95, { seed: 9, resamples: 300 }));
    expect(p95!.value).toBeGreaterThan(p50!.value);
  });

  it("rejects a NaN value and a percentile outside [0, 100]", () => {
    expect(() => bootstrapPercentileCIs([1, Number.NaN], [50])).toThrow(StatsArgumentError);
    expect(() => bootstrapPercentileCIs([1, 2], [50, 101])).toThrow(StatsArgumentError);
  });

  it("is deterministic for a seed and changes with it", () => {
    const a = bootstrapPercentileCI(latencies, 95, { seed: 3, resamples: 500 });
    expect(bootstrapPercentileCI(latencies, 95, { seed: 3, resamples: 500 })).toEqual(a);
    const b = bootstrapPercentileCI(latencies, 50, { seed: 4, resamples: 500 });
    const c = bootstrapPercentileCI(latencies, 50, { seed: 5, resamples: 500 });
    expect([b.lo, b.hi]).not.toEqual([c.lo, c.hi]);
  });

  it("brackets the sample percentile with observed values", () => {
    const ci = bootstrapPercentileCI(latencies, 50);
    expect(ci.value).toBe(percentile(latencies, 50));
    expect(ci.lo).toBeLessThanOrEqual(ci.value);
    expect(ci.hi).toBeGreaterThanOrEqual(ci.value);
    expect(latencies).toContain(ci.lo);
    expect(latencies).toContain(ci.hi);
    expect(ci.hi - ci.lo).toBeLessThan(40);
  });

  it("covers the true median of a known distribution in about 95% of samples", () => {
    const random = seededRandom(11);
    let covered = 0;
    const trials = 200;
    for (let t = 0; t < trials; t++) {
      // Uniform(0, 1): true median 0.5.
      const sample = Array.from({ length: 101 }, () => random());
      const ci = bootstrapPercentileCI(sample, 50, { seed: t, resamples: 300 });
      if (ci.lo <= 0.5 && 0.5 <= ci.hi) covered++;
    }
    expect(covered / trials).toBeGreaterThan(0.88);
    expect(covered / trials).toBeLessThanOrEqual(1);
  });

  it("a constant sample has a zero-width interval; an empty one has none", () => {
    expect(bootstrapPercentileCI([4, 4, 4], 95)).toEqual({ value: 4, lo: 4, hi: 4 });
    const empty = bootstrapPercentileCI([], 50);
    expect(empty.value).toBeNaN();
    expect(empty.lo).toBeNaN();
  });
});
