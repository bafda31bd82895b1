import { describe, expect, it } from "vitest";
import { contentHash, withoutTiming } from "./record-content.ts";

const record = {
  key: "sim:slm-3b|onsetlab|gh-s001|0",
  startedAt: 1_763_870_000_000,
  taskMs: 12.5,
  result: {
    answer: "Two open issues.",
    timings: { totalMs: 10, modelMs: 2, toolsMs: 5 },
    modelCalls: [
      { seq: 1, stage: "planner", output: "list_issues()", startMs: 0.4, durationMs: 1.2, timings: { totalMs: 900 } },
    ],
    toolCalls: [{ seq: 1, tool: "list_issues", attempts: [{ attempt: 1, durationMs: 3, outcome: "ok" }] }],
  },
  score: { taskSuccess: true, latency: { totalMs: 10, modelCallMs: [1.2] }, cost: { modelCalls: 1 } },
};

describe("withoutTiming", () => {
  it("drops every timing field at any depth and keeps the rest", () => {
    expect(withoutTiming(record)).toEqual({
      key: "sim:slm-3b|onsetlab|gh-s001|0",
      result: {
        answer: "Two open issues.",
        modelCalls: [{ seq: 1, stage: "planner", output: "list_issues()" }],
        toolCalls: [{ seq: 1, tool: "list_issues", attempts: [{ attempt: 1, outcome: "ok" }] }],
      },
      score: { taskSuccess: true, cost: { modelCalls: 1 } },
    });
  });
});

describe("contentHash", () => {
  it("is equal for records that differ only in timing, whatever their key order", () => {
    const later = structuredClone(record);
    later.startedAt += 5000;
    later.taskMs = 99;
    later.result.modelCalls[0]!.durationMs = 7;
    later.score.latency.totalMs = 80;
    const reordered = Object.fromEntries(Object.entries(later).reverse());
    expect(contentHash(reordered)).toBe(contentHash(record));
  });

  it("differs when the content differs", () => {
    const other = structuredClone(record);
    other.result.answer = "Three open issues.";
    expect(contentHash(other)).not.toBe(contentHash(record));
  });
});
