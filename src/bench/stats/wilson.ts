/** Wilson score interval for a binomial proportion (Wilson 1927), the interval every rate carries. */

import { StatsArgumentError } from "./errors.ts";

export interface Interval {
  lo: number;
  hi: number;
}

/** z of a two-sided 95% interval, as tables print it. */
export const Z95 = 1.96;

/** Throws unless 0 ≤ k ≤ n are integers. */
export function checkCounts(k: number, n: number, what: string): void {
  if (!Number.isInteger(k) || !Number.isInteger(n) || k < 0 || k > n) {
    throw new StatsArgumentError(`${what}: need integers 0 ≤ k ≤ n, got k=${k}, n=${n}`, { k, n });
  }
}

/**
 * Wilson score interval of k successes in n trials. With n = 0 nothing is known: [0, 1]. At k = 0 the
 * lower bound is exactly 0 and at k = n the upper bound exactly 1 (no rounding residue).
 */
export function wilson(k: number, n: number, z = Z95): Interval {
  checkCounts(k, n, "wilson");
  if (n === 0) return { lo: 0, hi: 1 };
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return {
    lo: k === 0 ? 0 : Math.max(0, centre - half),
    hi: k === n ? 1 : Math.min(1, centre + half),
  };
}
