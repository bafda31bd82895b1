/**
 * Invalid items in words: the warning line every report and the terminal print under a row whose
 * items could not all be scored, and the share above which a run fails (`pnpm bench` exits 1).
 */

import { invalidTotal } from "../bench/scoring/invalid-total.ts";
import type { SummaryRow } from "../bench/scoring/summarize.ts";

/** A row with more than this share of its items invalid fails the run (unless --allow-invalid). */
export const INVALID_LIMIT = 0.05;

/** `qwen2.5:3b × jsonl: 12 of 60 (context_overflow 12)`. */
export function invalidText(row: SummaryRow): string {
  const reasons = Object.entries(row.invalid)
    .filter(([, count]) => count > 0)
    .map(([reason, count]) => `${reason} ${count}`)
    .join(", ");
  const invalid = invalidTotal(row);
  return `${row.model} × ${row.config}: ${invalid} of ${row.n + invalid} (${reasons})`;
}

/** One warning line per row with invalid items. */
export function invalidWarnings(rows: readonly SummaryRow[]): string[] {
  return rows
    .filter((row) => invalidTotal(row) > 0)
    .map(
      (row) =>
        `Warning: ${invalidText(row)} items invalid, left out of every rate: a prompt that did not fit the ` +
        "context window, an output cut at its cap, or a server error — the server's limits, not the model's mistakes.",
    );
}

export function rowsOverInvalidLimit(rows: readonly SummaryRow[]): SummaryRow[] {
  return rows.filter((row) => {
    const invalid = invalidTotal(row);
    return invalid > 0 && invalid / (row.n + invalid) > INVALID_LIMIT;
  });
}
