import { describe, expect, it } from "vitest";
import { wilson } from "../stats/wilson.ts";
import { compare, DuplicatePairKeyError } from "./compare.ts";
import { scoreItem } from "./score-item.ts";
import { type ScoredRecord, summarize } from "./summarize.ts";
import { CREATE_ISSUE, call, item, TOOLS, trace } from "./testing/fixtures.ts";

const items = Array.from({ length: 10 }, (_, i) =>
  item({ id: `gh-${i}`, calls: [CREATE_ISSUE], category: i < 8 ? "single" : "parallel", servers: ["github"] }),
);
const weather = item({ id: "irr-1", category: "irrelevant", route: "direct", servers: ["search"] });

/** One configuration's records: the items in `succeed` get the gold call, the others a wrong title. */
function records(config: string, succeed: ReadonlySet<number>): ScoredRecord[] {
  const scored = items.map((it, i) => {
    const args = succeed.has(i) ? CREATE_ISSUE.args : { ...CREATE_ISSUE.args, title: "Other" };
    const run = trace({
      route: { route: "REWOO", rule: "default" },
      plan: {
        raw: ` issue_write(method="create", owner="acme", repo="webapp", title="${args.title}")`,
        steps: [{ id: "#E1", tool: "issue_write", args }],
      },
      steps: [{ id: "#E1", tool: "issue_write", round: 0, status: "ok", callSeq: 1 }],
      toolCalls: [call(1, "issue_write", args)],
      modelCalls: [
        { stage: "planner", durationMs: 5 + i, usage: { promptTokens: 100, completionTokens: 20 } },
        { stage: "solver", durationMs: 3, usage: { promptTokens: 50, completionTokens: 10 } },
      ],
      timings: { totalMs: 20 + i, modelMs: 8 + i, toolsMs: 2 },
    });
    return {
      model: "sim:slm-3b",
      config,
      item: it,
      score: scoreItem({ item: it, trace: run, stateChecks: [], tools: TOOLS }),
    };
  });
  const abstained = trace({ route: { route: "DIRECT", rule: "no-relevance" }, answer: "I can't." });
  scored.push({
    model: "sim:slm-3b",
    config,
    item: weather,
    score: scoreItem({ item: weather, trace: abstained, stateChecks: [], tools: TOOLS }),
  });
  return scored;
}

const successA = new Set([0, 1, 2, 3, 4, 5, 6]);
const successB = new Set([0, 1, 3, 4, 5, 6, 7, 8, 9]);

describe("summarize: cached calls", () => {
  it("counts model calls answered from the request cache apart, and only on rows that had some", () => {
    const scored = (config: string, cached: boolean): ScoredRecord => {
      const run = trace({
        modelCalls: [
          { stage: "planner", durationMs: 900, usage: { promptTokens: 100, completionTokens: 20 }, cached },
          { stage: "solver", durationMs: 400, usage: { promptTokens: 50, completionTokens: 10 } },
        ],
      });
      const it = items[0]!;
      return {
        model: "m",
        config,
        item: it,
        score: scoreItem({ item: it, trace: run, stateChecks: [], tools: TOOLS }),
      };
    };
    const rows = summarize([scored("warm", true), scored("warm", false), scored("cold", false)], {
      resamples: 50,
    }).rows;
    const warm = rows.find((row) => row.config === "warm")!;
    expect(warm.cachedCallsPerItem).toBe(0.5);
    // cached calls are still model calls, with the original call's tokens and times
    expect(warm.modelCallsPerItem).toBe(2);
    expect(warm.promptTokensPerItem).toBe(150);
    expect(warm.latency.modelCallP95Ms?.value).toBeGreaterThan(400);
    expect(rows.find((row) => row.config === "cold")!.cachedCallsPerItem).toBeUndefined();
  });
});

describe("summarize", () => {
  const summary = summarize([...records("onsetlab", successA), ...records("native", successB)], { resamples: 200 });

  it("one row per model × configuration with Wilson intervals on every rate", () => {
    expect(summary.rows.map((row) => [row.model, row.config, row.n])).toEqual([
      ["sim:slm-3b", "onsetlab", 11],
      ["sim:slm-3b", "native", 11],
    ]);
    const row = summary.rows[0]!;
    expect(row.taskSuccess).toEqual({ value: 8 / 11, ...wilson(8, 11), k: 8, n: 11 });
    expect(row.toolChoice).toMatchObject({ value: 1, k: 10, n: 10 });
    expect(row.callAccuracy).toMatchObject({ k: 7, n: 10 });
    // Right: 7 calls × 4 args + 3 calls × 3 args, of 40 judged arguments.
    expect(row.paramAccuracy).toMatchObject({ k: 37, n: 40, value: 37 / 40 });
    expect(row.abstention).toMatchObject({ k: 1, n: 1 });
    expect(row.routeAccuracy).toMatchObject({ k: 11, n: 11 });
    expect(row.rescueRate).toEqual({ value: null, lo: null, hi: null, k: 0, n: 0 });
    expect(row.stateAccuracy.n).toBe(0);
    expect(row.callsPerItem).toBeCloseTo(10 / 11, 10);
    expect(row.modelCallsPerItem).toBeCloseTo(20 / 11, 10);
    expect(row.promptTokensPerItem).toBeCloseTo(1500 / 11, 10);
  });

  it("latency percentiles with bootstrap intervals, and the split", () => {
    const row = summary.rows[0]!;
    // Totals 20..29 and 10 (the abstained item): nearest-rank p50 of 11 values is the 6th smallest.
    expect(row.p50Ms?.value).toBe(24);
    expect(row.p95Ms?.value).toBe(29);
    expect(row.p50Ms!.lo).toBeLessThanOrEqual(24);
    expect(row.p50Ms!.hi).toBeGreaterThanOrEqual(24);
    // Model calls: ten solver calls of 3 ms and planner calls of 5..14 ms.
    expect(row.latency.modelCallP50Ms?.value).toBe(3);
    expect(row.latency.modelCallP95Ms?.value).toBe(13);
    expect(row.latency.overheadMsPerItem).toBeCloseTo((10 * 10 + 2) / 11, 10);
    expect(summarize(records("onsetlab", successA), { resamples: 200 }).rows[0]).toEqual(row);
  });

  it("breakdowns by category and server, failure table, routing matrix, planner rates", () => {
    expect(
      summary.byCategory.filter((r) => r.config === "onsetlab").map((r) => [r.group?.value, r.n, r.taskSuccess.k]),
    ).toEqual([
      ["single", 8, 7],
      ["parallel", 2, 0],
      ["irrelevant", 1, 1],
    ]);
    expect(summary.byServer.filter((r) => r.config === "native").map((r) => [r.group?.value, r.n])).toEqual([
      ["github", 10],
      ["search", 1],
    ]);
    const failures = summary.failures[0]!;
    expect(failures).toMatchObject({ n: 11, failed: 3 });
    expect(failures.primary.wrong_value).toBe(3);
    expect(failures.primary.timeout).toBe(0);
    expect(summary.routing[0]).toEqual({
      model: "sim:slm-3b",
      config: "onsetlab",
      counts: { rewoo: { rewoo: 10 }, direct: { direct: 1 } },
      notRouted: 0,
    });
    const planner = summary.planner[0]!;
    expect(planner).toMatchObject({ outputs: 10, steps: 10 });
    expect(planner.rates.wrong_value).toMatchObject({ k: 3, n: 10 });
    expect(planner.stepCounts.wrong_value).toBe(3);
  });

  it("an empty input gives an empty summary", () => {
    expect(summarize([])).toEqual({
      rows: [],
      byCategory: [],
      byServer: [],
      failures: [],
      routing: [],
      planner: [],
      customMetrics: [],
    });
  });
});

describe("compare", () => {
  it("McNemar's exact test and the paired difference on the same items", () => {
    const result = compare(records("onsetlab", successA), records("native", successB));
    expect(result).toMatchObject({ paired: 11, onlyInA: 0, onlyInB: 0 });
    // A fails, B succeeds: items 7, 8, 9; A succeeds, B fails: item 2.
    expect(result.taskSuccess).toMatchObject({ n: 11, b01: 3, b10: 1, both: 7, neither: 0 });
    expect(result.taskSuccess.pValue).toBeCloseTo(0.625, 12);
    expect(result.taskSuccess.difference.value).toBeCloseTo(2 / 11, 12);
    expect(result.taskSuccess.difference.lo).toBeLessThan(0);
    expect(result.taskSuccess.a).toMatchObject({ k: 8, n: 11 });
    expect(result.taskSuccess.b).toMatchObject({ k: 10, n: 11 });
    // Tool choice applies to the 10 items with gold calls, all right on both sides.
    expect(result.toolChoice).toMatchObject({ n: 10, b01: 0, b10: 0, both: 10, pValue: 1 });
  });

  it("pairs by item id and repeat, and rejects a side mixing configurations", () => {
    const a = records("onsetlab", successA);
    const b = records("native", successB).map((record) => ({ ...record, repeat: 1 }));
    expect(compare(a, b)).toMatchObject({ paired: 0, onlyInA: 11, onlyInB: 11 });
    expect(() => compare([...a, ...a], b)).toThrow(DuplicatePairKeyError);
  });
});
