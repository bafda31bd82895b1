/**
 * Paired comparison of two configurations on the same items: McNemar's exact test and Newcombe's
 * interval for the difference of the two paired proportions.
 */

import { StatsArgumentError } from "./errors.ts";
import { checkCounts, type Interval, wilson, Z95 } from "./wilson.ts";

/**
 * McNemar's exact (conditional) test: under H0 each of the b01 + b10 discordant pairs goes either way
 * with probability 1/2, so the two-sided p-value is 2 · P(X ≤ min(b01, b10)) for X ~ Bin(b01 + b10, 1/2),
 * capped at 1 (1 when there is no discordant pair). Summed in log space so thousands of pairs neither
 * underflow nor lose precision.
 */
export function mcnemarExact(b01: number, b10: number): number {
  checkCounts(b01, b01 + b10, "mcnemarExact");
  checkCounts(b10, b01 + b10, "mcnemarExact");
  const n = b01 + b10;
  if (n === 0) return 1;
  const k = Math.min(b01, b10);
  // log C(n, i) built up term by term; the tail is summed relative to its largest term (i = k).
  const logTerms: number[] = [];
  let logChoose = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logChoose += Math.log(n - i + 1) - Math.log(i);
    logTerms.push(logChoose);
  }
  const top = Math.max(...logTerms);
  const tail = logTerms.reduce((sum, term) => sum + Math.exp(term - top), 0);
  return Math.min(1, 2 * Math.exp(Math.log(tail) + top - n * Math.LN2));
}

/** The four cells of a paired 2×2 table: `both` succeeded, only A, only B, `neither`. */
export interface PairedCounts {
  both: number;
  onlyA: number;
  onlyB: number;
  neither: number;
}

/** Adds one pair of outcomes (A's, B's) to `counts`; a pair where either side does not apply (null) is skipped. */
export function countPair(counts: PairedCounts, a: boolean | null, b: boolean | null): void {
  if (a === null || b === null) return;
  if (a && b) counts.both++;
  else if (a) counts.onlyA++;
  else if (b) counts.onlyB++;
  else counts.neither++;
}

export interface PairedDifference extends Interval {
  /** pB − pA. */
  value: number;
}

/**
 * Newcombe's (1998) hybrid score interval for the difference pB − pA of paired proportions (his
 * method 10): Wilson intervals of both marginals combined with the correlation φ of the pairs, φ
 * corrected towards 0 as in the paper. Bounds clamped to [−1, 1].
 */
export function pairedDifferenceCI(counts: PairedCounts, z = Z95): PairedDifference {
  const { both, onlyA, onlyB, neither } = counts;
  for (const [name, value] of Object.entries(counts)) {
    if (!Number.isInteger(value) || value < 0) {
      throw new StatsArgumentError(`pairedDifferenceCI: ${name} must be a non-negative integer, got ${value}`, {
        ...counts,
      });
    }
  }
  const n = both + onlyA + onlyB + neither;
  if (n === 0) return { value: 0, lo: -1, hi: 1 };
  const successA = both + onlyA;
  const successB = both + onlyB;
  const pA = successA / n;
  const pB = successB / n;
  const a = wilson(successA, n, z);
  const b = wilson(successB, n, z);
  const phi = correctedPhi(counts, n);
  const dA = pA - a.lo;
  const uA = a.hi - pA;
  const dB = pB - b.lo;
  const uB = b.hi - pB;
  const value = pB - pA;
  // pB − pA is lowest when pB sits at its lower bound and pA at its upper one, and vice versa.
  const lo = value - Math.sqrt(Math.max(0, dB * dB - 2 * phi * dB * uA + uA * uA));
  const hi = value + Math.sqrt(Math.max(0, uB * uB - 2 * phi * uB * dA + dA * dA));
  return { value, lo: Math.max(-1, lo), hi: Math.min(1, hi) };
}

/** φ of the 2×2 table with Newcombe's continuity correction: (ad − bc) shrunk by n/2 when positive. */
function correctedPhi({ both, onlyA, onlyB, neither }: PairedCounts, n: number): number {
  const denominator = (both + onlyA) * (onlyB + neither) * (both + onlyB) * (onlyA + neither);
  if (denominator === 0) return 0;
  const cross = both * neither - onlyA * onlyB;
  const corrected = cross > n / 2 ? cross - n / 2 : Math.min(cross, 0);
  return corrected / Math.sqrt(denominator);
}
