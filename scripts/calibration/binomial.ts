/**
 * The acceptance interval of a count under a binomial model: for X ~ Bin(n, p), the counts [lo, hi]
 * outside both tails of mass < (1 − level) / 2. A measured count inside it is what the configured rate
 * predicts at that level. (For rates that vary per trial the true law is Poisson-binomial, whose
 * variance is at most the binomial one with the same mean: this interval is the conservative one.)
 */

import { StatsArgumentError } from "../../src/bench/stats/index.ts";

export interface CountInterval {
  lo: number;
  hi: number;
}

export function binomialInterval(n: number, p: number, level = 0.95): CountInterval {
  if (!Number.isInteger(n) || n < 0)
    throw new StatsArgumentError(`binomialInterval: n must be an integer ≥ 0, got ${n}`, { n });
  if (!(p >= 0 && p <= 1)) throw new StatsArgumentError(`binomialInterval: p must be in [0, 1], got ${p}`, { p });
  if (!(level > 0 && level < 1))
    throw new StatsArgumentError(`binomialInterval: level must be in (0, 1), got ${level}`, { level });
  if (p === 0) return { lo: 0, hi: 0 };
  if (p === 1) return { lo: n, hi: n };
  const tail = (1 - level) / 2;
  const cdf = binomialCdf(n, p);
  // lo: the first count whose lower tail P(X ≤ k) reaches the tail mass; hi: the last count whose upper
  // tail P(X ≥ k) = 1 − P(X ≤ k − 1) still does.
  const lo = cdf.findIndex((value) => value >= tail);
  const hi = cdf.findIndex((value) => value > 1 - tail);
  return { lo, hi: hi === -1 ? n : hi };
}

/** P(X ≤ k) for k = 0 … n, from log-space terms (no underflow for large n or p). */
function binomialCdf(n: number, p: number): number[] {
  const logOdds = Math.log(p) - Math.log1p(-p);
  const logPmf: number[] = [n * Math.log1p(-p)];
  for (let k = 1; k <= n; k++) logPmf.push(logPmf[k - 1]! + Math.log((n - k + 1) / k) + logOdds);
  const top = Math.max(...logPmf);
  const weights = logPmf.map((value) => Math.exp(value - top));
  const total = weights.reduce((sum, value) => sum + value, 0);
  let running = 0;
  return weights.map((weight) => {
    running += weight;
    return running / total;
  });
}
