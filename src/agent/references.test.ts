import { describe, expect, it } from "vitest";
import { findReferences, readPath, resolveReferences } from "./references.ts";

const results = new Map<string, unknown>([
  ["#E1", { login: "octo-dev", id: 7 }],
  [
    "#E2",
    {
      issues: [
        { number: 1, title: "Login fails" },
        { number: 2, title: "Dark mode" },
      ],
      totalCount: 2,
    },
  ],
  ["#E3", "plain text result"],
  ["#E4", [{ id: "C01" }]],
]);

describe("resolveReferences", () => {
  it.each<[string, unknown, unknown]>([
    ["whole result", "#E3", "plain text result"],
    ["a field keeps its type", "#E1.id", 7],
    ["nested index and field", "#E2.issues[1].title", "Dark mode"],
    ["dot index", "#E2.issues.0.number", 1],
    ["bracket key", '#E1["login"]', "octo-dev"],
    ["an index on an object applies to its only array", "#E2[0].title", "Login fails"],
    ["a field on an array applies to its first element", "#E4.id", "C01"],
    ["spliced into text", "Hello #E1.login, you have #E2.totalCount issues.", "Hello octo-dev, you have 2 issues."],
    ["objects spliced as JSON", "data: #E1", 'data: {"login":"octo-dev","id":7}'],
    ["inside arrays and objects", { to: ["#E1.login"], n: { v: "#E1.id" } }, { to: ["octo-dev"], n: { v: 7 } }],
    ["non-strings untouched", 42, 42],
  ])("%s", (_, input, expected) => {
    const resolution = resolveReferences(input, results);
    expect(resolution.value).toEqual(expected);
    expect(resolution.problems).toEqual([]);
  });

  it.each([
    ["#E9", "#E9 has no result"],
    ["#E1.missing", '#E1.missing: no "missing"'],
    ["#E2.issues[5].title", "#E2.issues[5].title: no 5"],
  ])("reports %s", (input, problem) => {
    expect(resolveReferences(input, results).problems).toEqual([problem]);
  });

  it("finds references anywhere in a value", () => {
    expect(findReferences({ a: "#E1.x and #E12", b: ["#E3"], c: 5 }).sort()).toEqual(["#E1", "#E12", "#E3"]);
  });

  it("does not read a number after a reference as part of it", () => {
    expect(readPath({ a: 1 }, ".a")).toEqual({ ok: true, value: 1 });
    expect(resolveReferences("#E1.", results).value).toBe('{"login":"octo-dev","id":7}.');
  });
});
