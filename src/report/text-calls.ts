/**
 * Tool calls left as text, in words: the warning line every report and the terminal print under a row
 * whose model made tool calls that came back in the answer's text (the server's chat template did not
 * parse them), and the cell that counts them.
 */
import type { SummaryRow } from "../bench/scoring/summarize.ts";

/** `12/9`: calls left as text and the items they were in; `–` when none (or not counted yet). */
export function textCallsText(row: SummaryRow): string {
  const count = row.toolCallsAsText;
  return count && count.calls > 0 ? `${count.calls}/${count.items}` : "–";
}

/** One warning line per row with tool calls left as text. */
export function textCallWarnings(rows: readonly SummaryRow[]): string[] {
  return rows
    .filter((row) => (row.toolCallsAsText?.calls ?? 0) > 0)
    .map((row) => {
      const { calls, items } = row.toolCallsAsText!;
      return (
        `Warning: ${row.model} × ${row.config}: ${calls} tool call${calls === 1 ? "" : "s"} in ${items} of ${row.n} items ` +
        "came back as text, not parsed by the server's chat template — the model made them. native counts them as " +
        "tool_call_as_text (never a tool-choice mistake); native-recover executes them: compare the pair."
      );
    });
}
