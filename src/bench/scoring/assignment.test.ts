import { describe, expect, it } from "vitest";
import { assign } from "./assignment.ts";

/** Expected and actual as letters; a pair is acceptable when the letters are equal. */
function run(expected: string, actual: string, ordered: boolean, okActual = ""): number[] {
  return assign({
    expected: expected.length,
    actual: actual.length,
    accepts: (e, a) => expected[e] === actual[a],
    preference: (a) => (okActual.includes(String(a)) ? 1 : 0),
    ordered,
  });
}

describe("assign", () => {
  it.each([
    ["ab", "ab", true, [0, 1]],
    ["ab", "ba", false, [1, 0]],
    ["abc", "xaybzc", true, [1, 3, 5]],
    ["aa", "a", false, [0, -1]],
    ["", "abc", true, []],
    ["abc", "", false, [-1, -1, -1]],
    ["aba", "abba", true, [0, 1, 3]],
  ] as const)("%s ← %s (ordered %s)", (expected, actual, ordered, result) => {
    expect(run(expected, actual, ordered)).toEqual(result);
  });

  it("in order, a crossing pair can keep only one of its two matches", () => {
    const result = run("ab", "ba", true);
    expect(result.filter((a) => a >= 0)).toHaveLength(1);
    expect(run("aba", "aab", true).filter((a) => a >= 0)).toHaveLength(2);
  });

  it("finds the maximum matching where greedy would not", () => {
    // Expected 0 accepts actual 0 or 1, expected 1 only actual 0: greedy 0→0 would leave 1 unmatched.
    const result = assign({
      expected: 2,
      actual: 2,
      accepts: (e, a) => (e === 0 ? true : a === 0),
      ordered: false,
    });
    expect(result).toEqual([1, 0]);
  });

  it("prefers preferred actual calls among equally large assignments", () => {
    expect(run("a", "aa", true, "1")).toEqual([1]);
    expect(run("a", "aa", false, "1")).toEqual([1]);
    expect(run("a", "aa", true, "0")).toEqual([0]);
  });
});
