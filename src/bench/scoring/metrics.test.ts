import { describe, expect, it } from "vitest";
import { BINARY_METRICS, ITEM_METRICS, metricInfo, POOLED_METRICS } from "./metrics.ts";
import { scoreItem } from "./score-item.ts";
import type { ItemScore, RescueScore } from "./score-types.ts";
import { summarize } from "./summarize.ts";
import { CREATE_ISSUE, call, item, TOOLS, trace } from "./testing/fixtures.ts";

const gold = item({ id: "gh-1", calls: [CREATE_ISSUE] });
const base = scoreItem({
  item: gold,
  trace: trace({ toolCalls: [call(1, CREATE_ISSUE.tool, CREATE_ISSUE.args)] }),
  stateChecks: [],
  tools: TOOLS,
});

function rescued(rescue: Partial<RescueScore> | null): ItemScore {
  if (rescue === null) return { ...base, rescue: null };
  const full: RescueScore = {
    firstPlanFailed: true,
    recovered: false,
    recoveredBy: "none",
    injections: 0,
    judged: 0,
    wrong: [],
    ...rescue,
  };
  return { ...base, rescue: full };
}

const wrongValue = { tool: "issue_write", param: "title", value: "x", pattern: "Login" };

/** No plan, a plan that worked, then four failed first plans: two rescued, one by the fallback, one lost. */
const scores = [
  rescued(null),
  rescued({ firstPlanFailed: false, recovered: false }),
  rescued({ recovered: true, recoveredBy: "rescue", injections: 2, judged: 2, wrong: [wrongValue] }),
  rescued({ recovered: true, recoveredBy: "rescue", injections: 1, judged: 1 }),
  rescued({ recovered: true, recoveredBy: "fallback" }),
  rescued({ recovered: false, recoveredBy: "none", injections: 1, judged: 0 }),
];

const row = summarize(scores.map((score, i) => ({ model: "m", config: "c", item: { ...gold, id: `i${i}` }, score })))
  .rows[0]!;

describe("item metrics", () => {
  it("are the summary row's rate fields, in summary.json's field order", () => {
    const keys = Object.keys(row);
    expect(keys.slice(keys.indexOf("n") + 1, keys.indexOf("callsPerItem"))).toEqual([
      "taskSuccess",
      "toolChoice",
      "firstCall",
      "hallucination",
      "paramAccuracy",
      "callAccuracy",
      "stateAccuracy",
      "answerAccuracy",
      "abstention",
      "routeAccuracy",
      "rescueRate",
      "byRescue",
      "byFallback",
      "wrongInjectionRate",
      "goldVisible",
    ]);
  });

  it("count the rescue rate and its split over the items whose first plan failed", () => {
    const rescue = ITEM_METRICS.find((metric) => metric.name === "rescueRate")!;
    expect(scores.map(rescue.of)).toEqual([null, null, true, true, true, false]);
    expect(row.rescueRate).toMatchObject({ k: 3, n: 4 });
    expect(row.byRescue).toMatchObject({ k: 2, n: 4 });
    expect(row.byFallback).toMatchObject({ k: 1, n: 4 });
  });

  it("pool an item's several trials", () => {
    const wrong = ITEM_METRICS.find((metric) => metric.name === "wrongInjectionRate")!;
    expect(wrong.of(scores[2]!)).toEqual([1, 2]);
    expect(row.wrongInjectionRate).toMatchObject({ k: 1, n: 3 });
    // One gold call with four arguments, all right, on each of the six items.
    expect(row.paramAccuracy).toMatchObject({ k: 24, n: 24 });
    expect(row.callAccuracy).toMatchObject({ k: 6, n: 6 });
  });

  it("split into binary and pooled lists in list order, with their direction", () => {
    expect([...BINARY_METRICS, ...POOLED_METRICS].map((m) => m.name).sort()).toEqual(
      ITEM_METRICS.map((m) => m.name).sort(),
    );
    expect(POOLED_METRICS.map((m) => m.name)).toEqual(["paramAccuracy", "callAccuracy", "wrongInjectionRate"]);
    expect(BINARY_METRICS.every((m) => m.kind === "binary")).toBe(true);
    expect(metricInfo("hallucination")).toEqual({ label: "hallucinated tool", better: "lower", kind: "binary" });
    expect(metricInfo("paramAccuracy")).toEqual({ label: "param accuracy", better: "higher", kind: "pooled" });
  });
});
