/**
 * A tool filter that could not tell the tools apart (every tool scored 0 against the query's words, so
 * the tools shown were the first ones in registry order): one warning line per row it happened in. Its
 * rates measure the registry's order, not the model; the usual cause is tool names and descriptions
 * that share no word with the queries.
 */
import type { SummaryRow } from "../bench/scoring/summarize.ts";

export function filterBlindWarnings(rows: readonly SummaryRow[]): string[] {
  return rows
    .filter((row) => row.group === null && (row.filterBlind ?? 0) > 0)
    .map(
      (row) =>
        `Warning: ${row.model} × ${row.config}: the tool filter was blind in ${row.filterBlind} of ${row.n} items ` +
        "(no tool shared a word with the query, so it showed the first in registry order)",
    );
}
