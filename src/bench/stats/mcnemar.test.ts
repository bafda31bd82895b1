import { describe, expect, it } from "vitest";
import { countPair, mcnemarExact, type PairedCounts, pairedDifferenceCI } from "./mcnemar.ts";

/** Two-sided exact binomial p-value summed directly with BigInt binomial coefficients. */
function directBinomialP(b01: number, b10: number): number {
  const n = b01 + b10;
  if (n === 0) return 1;
  let choose = 1n;
  let tail = 0n;
  for (let i = 0; i <= Math.min(b01, b10); i++) {
    if (i > 0) choose = (choose * BigInt(n - i + 1)) / BigInt(i);
    tail += choose;
  }
  return Math.min(1, (2 * Number(tail)) / 2 ** n);
}

describe("mcnemarExact", () => {
  it("matches the textbook example (Bentur et al. 2009, Fagerland et al. ch. 8): b = 1, c = 7 → P = 0.0703", () => {
    expect(mcnemarExact(1, 7)).toBeCloseTo(0.0703125, 10);
    expect(mcnemarExact(7, 1)).toBeCloseTo(0.0703125, 10);
  });

  it.each([
    [0, 0],
    [0, 5],
    [3, 3],
    [2, 9],
    [6, 16],
    [40, 60],
    [100, 160],
  ])("equals the direct binomial sum for b01=%i, b10=%i", (b01, b10) => {
    expect(mcnemarExact(b01, b10)).toBeCloseTo(directBinomialP(b01, b10), 12);
  });

  it("stays finite and tiny for thousands of one-sided discordant pairs", () => {
    const p = mcnemarExact(0, 3000);
    expect(p).toBeGreaterThanOrEqual(0);
    expect(p).toBeLessThan(1e-300);
    expect(mcnemarExact(1500, 1500)).toBe(1);
  });
});

describe("pairedDifferenceCI (Newcombe method 10)", () => {
  // Fagerland, Lydersen & Laake, "Statistical Analysis of Contingency Tables", ch. 8 examples.
  it("Bentur et al. 2009: 2/21 vs 8/21 → −0.286 (−0.507 to −0.026)", () => {
    const ci = pairedDifferenceCI({ both: 1, onlyA: 7, onlyB: 1, neither: 12 });
    expect(ci.value).toBeCloseTo(-0.2857, 4);
    expect(ci.lo).toBeCloseTo(-0.5069, 4);
    expect(ci.hi).toBeCloseTo(-0.0256, 4);
  });

  it("Cavo et al. 2012: 65/161 vs 75/161 → −0.062 (−0.119 to −0.005)", () => {
    const ci = pairedDifferenceCI({ both: 59, onlyA: 16, onlyB: 6, neither: 80 });
    expect(ci.value).toBeCloseTo(-0.0621, 4);
    expect(ci.lo).toBeCloseTo(-0.1186, 4);
    expect(ci.hi).toBeCloseTo(-0.0046, 4);
  });

  it("is antisymmetric in A and B and contains 0 when nothing differs", () => {
    const ab = pairedDifferenceCI({ both: 30, onlyA: 4, onlyB: 9, neither: 7 });
    const ba = pairedDifferenceCI({ both: 30, onlyA: 9, onlyB: 4, neither: 7 });
    expect(ba.value).toBeCloseTo(-ab.value, 12);
    expect(ba.lo).toBeCloseTo(-ab.hi, 12);
    expect(ba.hi).toBeCloseTo(-ab.lo, 12);
    const same = pairedDifferenceCI({ both: 40, onlyA: 0, onlyB: 0, neither: 10 });
    expect(same.value).toBe(0);
    expect(same.lo).toBeLessThan(0);
    expect(same.hi).toBeGreaterThan(0);
  });

  it("stays within [−1, 1] at the extremes", () => {
    const ci = pairedDifferenceCI({ both: 0, onlyA: 0, onlyB: 12, neither: 0 });
    expect(ci.value).toBe(1);
    expect(ci.hi).toBe(1);
    expect(ci.lo).toBeGreaterThan(0);
  });
});

describe("countPair", () => {
  it("fills the four cells and skips pairs where either side does not apply", () => {
    const counts: PairedCounts = { both: 0, onlyA: 0, onlyB: 0, neither: 0 };
    const pairs: [boolean | null, boolean | null][] = [
      [true, true],
      [true, false],
      [false, true],
      [false, true],
      [false, false],
      [null, true],
      [true, null],
    ];
    for (const [a, b] of pairs) countPair(counts, a, b);
    expect(counts).toEqual({ both: 1, onlyA: 1, onlyB: 2, neither: 1 });
  });
});
