import { describe, expect, it } from "vitest";
import type { BenchEstimate } from "../bench/run/estimate.ts";
import { estimateText } from "./estimate-text.ts";

const estimate: BenchEstimate = {
  tasks: 5490,
  models: [
    {
      model: "qwen2.5:3b",
      modelCalls: 14_321,
      promptTokens: 28_123_456,
      completionTokens: 312_345,
      cached: 1_234,
      repeated: 2_345,
      toSend: 10_742,
      sentPromptTokens: 21_098_765,
      evaluatedPromptTokens: 9_876_543,
      sentCompletionTokens: 234_567,
      speed: { promptTokensPerSec: 412, genTokensPerSec: 38.5, overheadMs: 12, loadMs: 2900, from: "whole" },
      modelMs: 7_654_321,
    },
  ],
  harnessMs: 12_345,
  etaMs: 7_666_666,
  taskMs: {},
};

describe("bench --estimate's text", () => {
  it("on an 80-column terminal: every line fits, continuations under the value's column, the same words", () => {
    const wide = estimateText(estimate);
    const narrow = estimateText(estimate, 80);
    expect(wide.split("\n").some((line) => line.length > 80)).toBe(true);
    expect(narrow.split("\n").filter((line) => line.length > 80)).toEqual([]);
    const words = (text: string) => text.split(/\s+/).filter(Boolean);
    expect(words(narrow)).toEqual(words(wide));
    const speed = narrow.split("\n").findIndex((line) => line.startsWith("  server speed "));
    expect(narrow.split("\n")[speed + 1]).toMatch(/^ {22}\S/);
  });
});
