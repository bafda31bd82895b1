/** A proportion with its Wilson 95% interval, as every rate in a summary is reported. */

import { wilson } from "../stats/wilson.ts";

/** `value = k / n`; all three numbers null when n = 0 (nothing was measured). */
export interface Rate {
  value: number | null;
  lo: number | null;
  hi: number | null;
  k: number;
  n: number;
}

export function rate(k: number, n: number): Rate {
  if (n === 0) return { value: null, lo: null, hi: null, k, n };
  const { lo, hi } = wilson(k, n);
  return { value: k / n, lo, hi, k, n };
}

/** Counts the items where `test` holds among those where it applies (`null` = does not apply). */
export function rateOf<T>(items: readonly T[], test: (item: T) => boolean | null): Rate {
  let k = 0;
  let n = 0;
  for (const item of items) {
    const outcome = test(item);
    if (outcome === null) continue;
    n++;
    if (outcome) k++;
  }
  return rate(k, n);
}

/** Σk / Σn over items that each contribute several trials (per-argument, per-call accuracy). */
export function pooledRateOf<T>(items: readonly T[], counts: (item: T) => readonly [number, number]): Rate {
  let k = 0;
  let n = 0;
  for (const item of items) {
    const [right, total] = counts(item);
    k += right;
    n += total;
  }
  return rate(k, n);
}
