/** The calibration's verdict on one tally: is the measured count inside the 95% interval of the expected rate? */

import { binomialInterval, type CountInterval } from "./binomial.ts";
import type { Tally } from "./tally.ts";

export const CALIBRATION_LEVEL = 0.95;

export interface Judgement {
  /** The mean effective rate over the units (0 without units). */
  expectedRate: number;
  /** Counts a binomial (n, expectedRate) puts inside the two-sided interval. */
  interval: CountInterval;
  inside: boolean;
}

export function judge(tally: Tally): Judgement {
  const expectedRate = tally.n === 0 ? 0 : Math.min(1, tally.expected / tally.n);
  const interval = binomialInterval(tally.n, expectedRate, CALIBRATION_LEVEL);
  return { expectedRate, interval, inside: tally.measured >= interval.lo && tally.measured <= interval.hi };
}
