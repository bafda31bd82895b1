import { describe, expect, it } from "vitest";
import type { AnswerCheck } from "../dataset/types.ts";
import { AnswerCheckSpecError, scoreAnswer } from "./answer.ts";

describe("scoreAnswer", () => {
  it.each<[string, AnswerCheck, string, boolean, number]>([
    ["contains, case-insensitive", { contains: ["Login Fails", "#7"] }, "Created issue #7: login fails", true, 0],
    ["contains, one missing", { contains: ["login", "#8"] }, "Created issue #7: login", false, 1],
    ["anyOf", { anyOf: ["3 issues", "three issues"] }, "There are Three Issues.", true, 0],
    ["anyOf, none", { anyOf: ["yes", "sure"] }, "No.", false, 1],
    ["notContains", { notContains: ["error"] }, "An ERROR happened", false, 1],
    ["regex, case-insensitive", { regex: "\\b42\\s*°?c\\b" }, "It is 42 C outside", true, 0],
    ["regex fails", { regex: "^done$" }, "not done", false, 1],
    ["every part", { contains: ["a"], anyOf: ["b"], notContains: ["c"], regex: "a.b" }, "a-b", true, 0],
    ["several parts fail", { contains: ["x"], notContains: ["a"] }, "a-b", false, 2],
  ])("%s", (_name, check, answer, ok, failedParts) => {
    const score = scoreAnswer("t-1", check, answer);
    expect(score?.ok).toBe(ok);
    expect(score?.failed).toHaveLength(failedParts);
  });

  it("is null without a check, and names the item when the check cannot run", () => {
    expect(scoreAnswer("t-1", undefined, "x")).toBeNull();
    expect(() => scoreAnswer("t-9", { regex: "(" }, "x")).toThrow(AnswerCheckSpecError);
    expect(() => scoreAnswer("t-9", { regex: "(" }, "x")).toThrow(/item t-9/);
  });
});
