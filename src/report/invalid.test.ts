import { describe, expect, it } from "vitest";
import type { SummaryRow } from "../bench/scoring/summarize.ts";
import { invalidText, invalidWarnings, rowsOverInvalidLimit } from "./invalid.ts";

/** Only the fields the invalid checks read. */
function row(config: string, n: number, invalid: Partial<SummaryRow["invalid"]>): SummaryRow {
  return {
    model: "qwen2.5:3b",
    config,
    n,
    invalid: { context_overflow: 0, output_truncated: 0, server_error: 0, ...invalid },
  } as SummaryRow;
}

describe("invalid items in a run", () => {
  const rows = [
    row("onsetlab", 60, {}),
    // 3 of 60 items is exactly 5%: not over the limit
    row("rewoo", 57, { output_truncated: 3 }),
    // 4 of 60 is over it
    row("jsonl", 56, { context_overflow: 3, server_error: 1 }),
  ];

  it("fails only the rows with more than 5% of their items invalid", () => {
    expect(rowsOverInvalidLimit(rows).map((r) => r.config)).toEqual(["jsonl"]);
  });

  it("names each row's invalid items per reason, over all its items", () => {
    expect(invalidText(rows[2]!)).toBe("qwen2.5:3b × jsonl: 4 of 60 (context_overflow 3, server_error 1)");
    const warnings = invalidWarnings(rows);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(
      /^Warning: qwen2\.5:3b × rewoo: 3 of 60 \(output_truncated 3\) items invalid, left out of every rate/,
    );
  });
});
