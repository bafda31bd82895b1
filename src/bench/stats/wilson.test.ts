import { describe, expect, it } from "vitest";
import { StatsArgumentError } from "./errors.ts";
import { wilson } from "./wilson.ts";

describe("wilson", () => {
  // Reference values: the Wilson score interval at z = 1.96 as statistics tables give it.
  it.each([
    [0, 10, 0, 0.27754],
    [5, 10, 0.23659, 0.76341],
    [10, 10, 0.72246, 1],
    [1, 20, 0.00888, 0.23614],
    [81, 263, 0.25529, 0.36621],
  ])("%i/%i → [%f, %f]", (k, n, lo, hi) => {
    const interval = wilson(k, n);
    expect(interval.lo).toBeCloseTo(lo, 5);
    expect(interval.hi).toBeCloseTo(hi, 5);
  });

  it("is exact at the edges and [0, 1] with no trials", () => {
    expect(wilson(0, 7).lo).toBe(0);
    expect(wilson(7, 7).hi).toBe(1);
    expect(wilson(0, 0)).toEqual({ lo: 0, hi: 1 });
  });

  it("narrows with n and widens with z", () => {
    expect(wilson(50, 100).hi - wilson(50, 100).lo).toBeLessThan(wilson(5, 10).hi - wilson(5, 10).lo);
    expect(wilson(5, 10, 2.576).lo).toBeLessThan(wilson(5, 10).lo);
  });

  it.each([
    [3, 2],
    [-1, 5],
    [1.5, 4],
  ])("rejects k=%f, n=%f", (k, n) => {
    expect(() => wilson(k, n)).toThrow(StatsArgumentError);
  });
});
