/**
 * How numbers read in every report format (markdown, html, terminal): one place, so a page and its
 * markdown twin never disagree. Pure: the same value always gives the same text.
 */
import type { Rate } from "../bench/scoring/rate.ts";

/** Shown where a value does not apply (n = 0) or was not measured. */
export const NOT_APPLICABLE = "–";

export function percentText(value: number | null, digits = 1): string {
  return value === null ? NOT_APPLICABLE : `${(value * 100).toFixed(digits)}%`;
}

/** `[63.7–71.1]`, in percent, without the sign. */
export function intervalText(lo: number | null, hi: number | null): string {
  return lo === null || hi === null ? "" : `[${(lo * 100).toFixed(1)}–${(hi * 100).toFixed(1)}]`;
}

export type RateStyle = "plain" | "interval" | "counts";

/** `67.5%`, `67.5% [63.7–71.1]` or `67.5% (412/610)`; `–` when nothing was measured. */
export function rateText(rate: Rate, style: RateStyle = "plain"): string {
  if (rate.value === null) return NOT_APPLICABLE;
  const value = percentText(rate.value);
  if (style === "interval") return `${value} ${intervalText(rate.lo, rate.hi)}`;
  if (style === "counts") return `${value} (${rate.k}/${rate.n})`;
  return value;
}

/** A difference of two proportions in percentage points, signed: `+2.3 pp`, `−1.0 pp`. */
export function pointsText(value: number | null): string {
  if (value === null) return NOT_APPLICABLE;
  const points = value * 100;
  const rounded = points.toFixed(1);
  if (rounded === "0.0" || rounded === "-0.0") return "0.0 pp";
  return points > 0 ? `+${rounded} pp` : `−${rounded.slice(1)} pp`;
}

/** `[−4.1, +0.5]` in percentage points. */
export function pointsIntervalText(lo: number | null, hi: number | null): string {
  if (lo === null || hi === null) return "";
  const one = (x: number) => pointsText(x).replace(" pp", "");
  return `[${one(lo)}, ${one(hi)}]`;
}

/** p-values to three places; below 0.001 as `<0.001` (exact values stay in the csv). */
export function pValueText(value: number | null): string {
  if (value === null) return NOT_APPLICABLE;
  return value < 0.001 ? "<0.001" : value.toFixed(3);
}

export function numberText(value: number | null, digits = 1): string {
  return value === null ? NOT_APPLICABLE : value.toFixed(digits);
}
