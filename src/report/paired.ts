/**
 * Paired tests of one metric between two sets of per-item outcomes (a baseline and a run, or two
 * runs), on the keys both have: McNemar's exact test with Newcombe's interval for binary metrics; for
 * pooled metrics (several trials per item) the sign test over items whose accuracy moved, which is
 * McNemar's test on those items.
 */
import type { Rate } from "../bench/scoring/rate.ts";
import { countPair, mcnemarExact, type PairedDifference, pairedDifferenceCI } from "../bench/stats/mcnemar.ts";
import { type BinaryValue, binaryRate, type PooledValue, pooledRate } from "./outcomes.ts";

export interface PairedChange {
  /** Each side over all its own keys (what the summary shows). */
  before: Rate;
  after: Rate;
  /** Keys where the metric applies on both sides. */
  pairs: number;
  /** Items that moved up / down (binary: 0→1 / 1→0; pooled: accuracy rose / fell). */
  up: number;
  down: number;
  pValue: number;
  /** after − before on the paired items with Newcombe's 95% interval (binary metrics only). */
  difference: PairedDifference | null;
  /** Keys whose outcome differs in any way (also applies ↔ does not apply). */
  changedKeys: string[];
}

/** Values of the same keys side by side: `keys[i]` has `before[i]` and `after[i]`. */
export interface Aligned<T> {
  keys: string[];
  before: T[];
  after: T[];
}

/** The keys two outcome sets share, in the first set's order. */
export function align<T>(
  beforeKeys: readonly string[],
  before: readonly T[],
  afterKeys: readonly string[],
  after: readonly T[],
): Aligned<T> {
  const position = new Map(afterKeys.map((key, index) => [key, index]));
  const aligned: Aligned<T> = { keys: [], before: [], after: [] };
  beforeKeys.forEach((key, index) => {
    const other = position.get(key);
    if (other === undefined) return;
    aligned.keys.push(key);
    aligned.before.push(before[index]!);
    aligned.after.push(after[other]!);
  });
  return aligned;
}

export function pairedBinary(
  aligned: Aligned<BinaryValue>,
  totals: { before: readonly BinaryValue[]; after: readonly BinaryValue[] },
): PairedChange {
  const counts = { both: 0, onlyA: 0, onlyB: 0, neither: 0 };
  const changedKeys: string[] = [];
  aligned.keys.forEach((key, index) => {
    const x = aligned.before[index]!;
    const y = aligned.after[index]!;
    if (x !== y) changedKeys.push(key);
    countPair(counts, x, y);
  });
  const pairs = counts.both + counts.onlyA + counts.onlyB + counts.neither;
  return {
    before: binaryRate(totals.before),
    after: binaryRate(totals.after),
    pairs,
    up: counts.onlyB,
    down: counts.onlyA,
    pValue: mcnemarExact(counts.onlyB, counts.onlyA),
    difference: pairs === 0 ? null : pairedDifferenceCI(counts),
    changedKeys,
  };
}

export function pairedPooled(
  aligned: Aligned<PooledValue>,
  totals: { before: readonly PooledValue[]; after: readonly PooledValue[] },
): PairedChange {
  let up = 0;
  let down = 0;
  let pairs = 0;
  const changedKeys: string[] = [];
  aligned.keys.forEach((key, index) => {
    const [k1, n1] = aligned.before[index]!;
    const [k2, n2] = aligned.after[index]!;
    if (k1 !== k2 || n1 !== n2) changedKeys.push(key);
    if (n1 === 0 || n2 === 0) return;
    pairs++;
    // compare k1/n1 with k2/n2 without division
    const sign = Math.sign(k2 * n1 - k1 * n2);
    if (sign > 0) up++;
    else if (sign < 0) down++;
  });
  return {
    before: pooledRate(totals.before),
    after: pooledRate(totals.after),
    pairs,
    up,
    down,
    pValue: mcnemarExact(up, down),
    difference: null,
    changedKeys,
  };
}
