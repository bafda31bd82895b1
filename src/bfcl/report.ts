/**
 * Rendering scored result folders: the `--json` shape and the terminal table with every
 * disagreement listed with both verdicts.
 */

import type { CategoryScore } from "./score-dir.ts";
import type { BfclVerdict } from "./types.ts";

export interface CategoryJson {
  readonly total: number;
  readonly correct: number;
  readonly accuracy: number;
  /** null when no BFCL score file was found for the category. */
  readonly agree: number | null;
  readonly disagree: number | null;
  readonly bfclAccuracy: number | null;
  readonly sameErrorType: number | null;
  readonly disagreements: readonly { id: string; output: string; ours: BfclVerdict; bfcl: BfclVerdict }[];
  /** Multi-turn only: calls made in turns whose ground truth is empty. */
  readonly callsInEmptyTurns?: number;
}

export function toJsonReport(scores: readonly CategoryScore[]): { categories: Record<string, CategoryJson> } {
  const categories: Record<string, CategoryJson> = {};
  for (const s of scores) {
    const a = s.agreement;
    categories[s.category] = {
      total: s.total,
      correct: s.correct,
      accuracy: s.accuracy,
      agree: a?.agree ?? null,
      disagree: a?.disagree ?? null,
      bfclAccuracy: a?.bfclAccuracy ?? null,
      sameErrorType: a?.sameErrorType ?? null,
      disagreements: a?.disagreements ?? [],
      ...(s.callsInEmptyTurns === undefined ? {} : { callsInEmptyTurns: s.callsInEmptyTurns }),
    };
  }
  return { categories };
}

function pct(x: number): string {
  return `${(x * 100).toFixed(2)}%`;
}

function row(cells: readonly string[], widths: readonly number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
}

function verdictText(v: BfclVerdict): string {
  return v.valid ? "pass" : `fail ${v.errorType}: ${v.error[0] ?? ""}`;
}

export function toTerminalReport(resultDir: string, scores: readonly CategoryScore[]): string {
  const header = ["category", "total", "correct", "accuracy", "BFCL acc.", "agree", "disagree", "same error type"];
  const lines = scores.map((s) => {
    const a = s.agreement;
    return [
      s.category,
      String(s.total),
      String(s.correct),
      pct(s.accuracy),
      a ? pct(a.bfclAccuracy) : "—",
      a ? String(a.agree) : "—",
      a ? String(a.disagree) : "—",
      a ? `${a.sameErrorType}/${a.bothFailing}` : "—",
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const out = [`BFCL scoring of ${resultDir}`, "", row(header, widths), ...lines.map((l) => row(l, widths))];
  if (scores.every((s) => !s.agreement)) out.push("", "No BFCL score files found: agreement not computed.");
  for (const s of scores)
    if (s.callsInEmptyTurns !== undefined)
      out.push(
        "",
        `${s.category}: ${s.callsInEmptyTurns} calls made in turns whose ground truth is empty (BFCL's verdict counts them only through the state they leave)`,
      );
  for (const s of scores) {
    for (const d of s.agreement?.disagreements ?? []) {
      out.push(
        "",
        `✗ ${s.category} ${d.id}: ${d.output}`,
        `    ours: ${verdictText(d.ours)}`,
        `    BFCL: ${verdictText(d.bfcl)}`,
      );
    }
  }
  return `${out.join("\n")}\n`;
}

/** One scored result folder (a model). */
export interface ModelScores {
  readonly model: string;
  readonly resultDir: string;
  readonly scores: readonly CategoryScore[];
}

/** One folder: `{"categories": …}` (the shape); several: `{"models": {name: {"categories": …}}}`. */
export function toJsonReports(models: readonly ModelScores[]): object {
  if (models.length === 1) return toJsonReport(models[0]!.scores);
  return { models: Object.fromEntries(models.map((m) => [m.model, toJsonReport(m.scores)])) };
}

export function toTerminalReports(models: readonly ModelScores[]): string {
  return models.map((m) => toTerminalReport(m.resultDir, m.scores)).join("\n");
}
