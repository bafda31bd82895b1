import { describe, expect, it } from "vitest";
import { seededRandom } from "../../random.ts";
import { bootstrapPercentileCI } from "./bootstrap.ts";
import { nearestRank, percentile, selectInPlace } from "./percentile.ts";

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

  it("selectInPlace finds the same order statistic as a sort, duplicates included", () => {
    const random = seededRandom(7);
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + Math.floor(random() * 40);
      const values = Array.from({ length: n }, () => Math.floor(random() * 10));
      const sorted = [...values].sort((a, b) => a - b);
      const k = Math.floor(random() * n);
      expect(selectInPlace(Float64Array.from(values), k)).toBe(sorted[k]);
    }
    expect(nearestRank(10, 95)).toBe(10);
  });
});

describe("bootstrapPercentileCI", () => {
  const latencies = Array.from({ length: 200 }, (_, i) => 100 + ((i * 37) % 101));

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
