/** Kept apart from summarize.ts so that readers of a summary (the report's tables, the web viewer) need none of its imports. */
import type { SummaryRow } from "./summarize.ts";

/** A row's invalid items, all reasons together. */
export function invalidTotal(row: Pick<SummaryRow, "invalid">): number {
  return Object.values(row.invalid).reduce((sum, count) => sum + count, 0);
}
