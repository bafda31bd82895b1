/** Invalid items: left out of every rate and table, counted per reason on their rows. */
import { describe, expect, it } from "vitest";
import { invalidTotal } from "./invalid-total.ts";
import { scoreItem } from "./score-item.ts";
import { type ScoredRecord, summarize } from "./summarize.ts";
import { CREATE_ISSUE, call, item, TOOLS, trace } from "./testing/fixtures.ts";
import type { ModelCallView } from "./types.ts";

const items = Array.from({ length: 6 }, (_, i) => item({ id: `gh-${i}`, calls: [CREATE_ISSUE], servers: ["github"] }));

/** Item i: the gold call when `right`, else a wrong title; its planner call carries `invalid`. */
function scored(i: number, right: boolean, calls: ModelCallView[]): ScoredRecord {
  const args = right ? CREATE_ISSUE.args : { ...CREATE_ISSUE.args, title: "Other" };
  const run = trace({
    toolCalls: [call(1, "issue_write", args)],
    modelCalls: calls,
    timings: { totalMs: 10, modelMs: 5, toolsMs: 1 },
  });
  const it = items[i]!;
  return {
    model: "m",
    config: "c",
    item: it,
    score: scoreItem({ item: it, trace: run, stateChecks: [], tools: TOOLS }),
  };
}

const planner = (invalid?: ModelCallView["invalid"]): ModelCallView => ({
  stage: "planner",
  durationMs: 2,
  ...(invalid ? { invalid } : {}),
});

describe("invalid items", () => {
  it("carry the first reason of their calls; a router or selector answer cut at its few-token cap is not one", () => {
    const overflow = scored(0, false, [planner("output_truncated"), planner("context_overflow")]);
    expect(overflow.score.invalid).toBe("context_overflow");
    const router = scored(1, true, [{ stage: "router", durationMs: 1, invalid: "output_truncated" }, planner()]);
    expect(router.score.invalid).toBeUndefined();
    const select = scored(3, true, [{ stage: "select", durationMs: 1, invalid: "output_truncated" }, planner()]);
    expect(select.score.invalid).toBeUndefined();
    expect(scored(2, true, [planner("server_error")]).score.invalid).toBe("server_error");
  });

  it("are left out of every rate and counted per reason on the row", () => {
    const records = [
      scored(0, true, [planner()]),
      scored(1, true, [planner()]),
      // wrong answers on calls that could not be scored: they must not count as failures
      scored(2, false, [planner("context_overflow")]),
      scored(3, false, [planner("context_overflow")]),
      scored(4, false, [planner("output_truncated")]),
      scored(5, false, [planner()]),
    ];
    const summary = summarize(records, { resamples: 50 });
    const row = summary.rows[0]!;
    expect(row.n).toBe(3);
    expect(row.invalid).toEqual({ context_overflow: 2, output_truncated: 1, server_error: 0 });
    expect(invalidTotal(row)).toBe(3);
    expect(row.taskSuccess).toMatchObject({ k: 2, n: 3 });
    expect(summary.failures[0]).toMatchObject({ n: 3, failed: 1 });
    expect(summary.byCategory[0]).toMatchObject({ n: 3, invalid: { context_overflow: 2 } });
  });
});
