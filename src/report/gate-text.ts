/** The gate's verdict for people: one line per failing metric (old, new, interval, why), then a tally. */
import type { Rate } from "../bench/scoring/rate.ts";
import { intervalText, percentText, pointsIntervalText, pointsText, pValueText } from "./format.ts";
import { type GateCheck, type GateResult, verdictTally } from "./gate.ts";
import { metricInfo } from "./metrics.ts";

export function renderGate(result: GateResult, header: string): string {
  const lines = [header];
  for (const failure of result.failures) lines.push(failureLine(failure));
  for (const note of result.notes) lines.push(`note: ${note}`);
  const entries = new Set(result.checks.map((check) => `${check.model}|${check.config}`)).size;
  const exact = [...new Set(result.checks.filter((c) => c.mode === "exact").map((c) => c.model))];
  const scope =
    `${entries} model × configurations` + (exact.length > 0 ? `; exact match required for ${exact.join(", ")}` : "");
  lines.push(
    result.failures.length === 0
      ? `gate: all ${result.checks.length} checks hold (${scope})`
      : `gate: ${result.failures.length} of ${result.checks.length} checks failed: ${verdictTally(result.failures)} (${scope})`,
  );
  return `${lines.join("\n")}\n`;
}

function failureLine(check: GateCheck): string {
  const { change } = check;
  const delta =
    change.difference !== null
      ? `Δ ${pointsText(change.difference.value)} ${pointsIntervalText(change.difference.lo, change.difference.hi)}`
      : `Δ ${pointsText(
          change.after.value === null || change.before.value === null ? null : change.after.value - change.before.value,
        )}`;
  return (
    `${check.verdict === "improved" ? "IMPROVED" : "FAIL"} ${check.model} × ${check.config} · ${metricInfo(check.metric).label}: ` +
    `${rateWithCounts(change.before)} → ${rateWithCounts(change.after)}; ${delta}, ` +
    `p = ${pValueText(change.pValue)} over ${change.pairs} paired items — ${check.reasons.join("; ")}`
  );
}

function rateWithCounts(rate: Rate): string {
  return `${rate.k}/${rate.n} ${percentText(rate.value)} ${intervalText(rate.lo, rate.hi)}`.trim();
}
