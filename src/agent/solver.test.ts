import { describe, expect, it } from "vitest";
import { cleanAnswer, formatEvidence, shareBudget } from "./solver.ts";

describe("cleanAnswer", () => {
  it.each([
    ["Based on the results, there are 2 open issues.", "There are 2 open issues."],
    ["Based on the tool results provided, the user is octo.", "The user is octo."],
    ["According to the data: it is sunny.", "It is sunny."],
    ["The results show that the PR was merged.", "The PR was merged."],
    ["Final Answer: Done.", "Done."],
    ["Answer: Based on the results, done.", "Done."],
    ["Issue 3 was created (note: titled as requested).", "Issue 3 was created."],
    ["Issue 3 was created (based on #E1).", "Issue 3 was created."],
    ["There are 2 issues (Login fails, Dark mode).", "There are 2 issues (Login fails, Dark mode)."],
    ["The issue was created. It has the number 3 and the lab", "The issue was created."],
    ["There are two open issues", "There are two open issues"],
    ["Posted to #general! The message id is", "Posted to #general!"],
    ['He said "done"', 'He said "done"'],
    ["  lower case start.  ", "Lower case start."],
  ])("%j → %j", (input, expected) => {
    expect(cleanAnswer(input)).toBe(expected);
  });
});

describe("tool data for the solver", () => {
  it("shares the budget: short results stay whole, long ones split the rest", () => {
    expect(shareBudget([10, 1000, 1000], 800)).toEqual([10, 395, 395]);
    expect(shareBudget([100, 200], 800)).toEqual([100, 200]);
    expect(shareBudget([], 800)).toEqual([]);
  });

  it("flags errors and caps the total", () => {
    const lines = formatEvidence(
      [
        { source: "#E1 list_issues", ok: true, text: "x".repeat(2000) },
        { source: "#E2 slack_post_message", ok: false, text: "channel_not_found" },
      ],
      800,
    );
    expect(lines[1]).toBe("[#E2 slack_post_message] ERROR: channel_not_found");
    expect(lines.join("").length).toBeLessThanOrEqual(800 + 60);
    expect(lines[0]?.endsWith("…")).toBe(true);
  });
});
