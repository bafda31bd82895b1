/**
 * Two-sided group-sequential boundaries with Lan & DeMets' (1983, Biometrika 70:659) error spending: the
 * O'Brien–Fleming-type spending function, applied to each side's α/2 as R's ldbounds and gsDesign do
 * (αₛ(t) = 2 − 2Φ(z₁₋α/₄ / √t) per side), says how much of the type I error may be spent by information
 * fraction t. Each look's boundary is found so that, under H0, the chance of
 * crossing first at that look is exactly what the function allows there; the recursion is Armitage,
 * McPherson & Rowe's (1969) numerical integration of the score process (Jennison & Turnbull 2000, §19.2).
 * The test over all looks thus keeps the error rate α of a fixed-size test.
 */

import { StatsArgumentError } from "./errors.ts";
import { normalCdf, normalDensity, normalQuantile } from "./normal.ts";

/** Points of the integration grid over a continuation interval (odd, for Simpson's rule). */
const GRID = 401;
/** A boundary this far out is never crossed in practice: a look that may spend (almost) nothing. */
const NEVER = 12;

/** O'Brien–Fleming-type spending: the two-sided type I error that may be spent by information fraction t. */
export function obrienFlemingSpent(t: number, alpha: number): number {
  if (t <= 0) return 0;
  const perSide = 2 - 2 * normalCdf(normalQuantile(1 - alpha / 4) / Math.sqrt(Math.min(1, t)));
  return Math.min(alpha, 2 * perSide);
}

/**
 * The |Z| boundary of each look at information fractions `fractions` (increasing, the last ≤ 1): stop
 * at look k when |Z_k| ≥ boundaries[k].
 */
export function groupSequentialBoundaries(fractions: readonly number[], alpha: number): number[] {
  if (!(alpha > 0 && alpha < 1)) throw new StatsArgumentError(`need 0 < alpha < 1, got ${alpha}`, { alpha });
  fractions.forEach((t, index) => {
    if (!(t > 0 && t <= 1) || (index > 0 && t <= fractions[index - 1]!)) {
      throw new StatsArgumentError("information fractions must increase within (0, 1]", { fractions });
    }
  });
  const boundaries: number[] = [];
  // the density of the score S = Z·√t over the previous look's continuation interval, on a grid
  let grid: number[] = [];
  let density: number[] = [];
  let spentBefore = 0;
  fractions.forEach((t, index) => {
    const spend = obrienFlemingSpent(t, alpha) - spentBefore;
    spentBefore += spend;
    if (index === 0) {
      const c = spend > 0 ? normalQuantile(1 - spend / 2) : NEVER;
      boundaries.push(c);
    } else {
      const step = t - fractions[index - 1]!;
      const exit = (c: number) =>
        integrate(grid, density, (u) => {
          const edge = c * Math.sqrt(t);
          return 1 - normalCdf((edge - u) / Math.sqrt(step)) + normalCdf((-edge - u) / Math.sqrt(step));
        });
      boundaries.push(spend > 0 ? solveDecreasing(exit, spend) : NEVER);
    }
    const edge = boundaries[index]! * Math.sqrt(t);
    const next = Array.from({ length: GRID }, (_, i) => -edge + (2 * edge * i) / (GRID - 1));
    density =
      index === 0
        ? next.map((s) => normalDensity(s / Math.sqrt(t)) / Math.sqrt(t))
        : next.map((s) => {
            const step = t - fractions[index - 1]!;
            return integrate(grid, density, (u) => normalDensity((s - u) / Math.sqrt(step)) / Math.sqrt(step));
          });
    grid = next;
  });
  return boundaries;
}

/** ∫ density(u)·g(u) du over the grid, by Simpson's rule. */
function integrate(grid: readonly number[], density: readonly number[], g: (u: number) => number): number {
  const h = (grid[grid.length - 1]! - grid[0]!) / (grid.length - 1);
  let sum = 0;
  for (let i = 0; i < grid.length; i++) {
    const weight = i === 0 || i === grid.length - 1 ? 1 : i % 2 === 1 ? 4 : 2;
    sum += weight * density[i]! * g(grid[i]!);
  }
  return (sum * h) / 3;
}

/** The c where a decreasing f(c) equals target, by bisection over [0, NEVER]. */
function solveDecreasing(f: (c: number) => number, target: number): number {
  let lo = 0;
  let hi = NEVER;
  if (f(hi) > target) return hi;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) > target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
