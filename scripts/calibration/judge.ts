/**
 * The calibration's verdict on one tally: is the measured count inside the interval of the expected rate?
 * The intervals of all compared types hold together at 95% (Bonferroni): with one 95% interval per type, a
 * calibrated simulator would put some type outside by chance on about half of all prompt changes.
 */

import { SIM_ERROR_TYPES } from "../../src/models/sim/index.ts";
import { binomialInterval, type CountInterval } from "./binomial.ts";
import type { Tally } from "./tally.ts";

/** The family-wise level: the chance that every type of a calibrated simulator lands inside. */
export const CALIBRATION_LEVEL = 0.95;
/** The level of each type's interval: the family's error shared equally by the compared types. */
export const PER_TYPE_LEVEL = 1 - (1 - CALIBRATION_LEVEL) / SIM_ERROR_TYPES.length;

export interface Judgement {
  /** The mean effective rate over the units (0 without units). */
  expectedRate: number;
  /** Counts a binomial (n, expectedRate) puts inside the two-sided interval. */
  interval: CountInterval;
  inside: boolean;
}

export function judge(tally: Tally): Judgement {
  const expectedRate = tally.n === 0 ? 0 : Math.min(1, tally.expected / tally.n);
  const interval = binomialInterval(tally.n, expectedRate, PER_TYPE_LEVEL);
  return { expectedRate, interval, inside: tally.measured >= interval.lo && tally.measured <= interval.hi };
}
