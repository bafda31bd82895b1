import { describe, expect, it } from "vitest";
import { goldArgs, goldValue, mayOmit } from "../../gold-value.ts";
import { checkAnswer } from "./answer-check.ts";
import { jaccard, queryTokens } from "./near-duplicates.ts";
import { datasetRegex } from "./regex.ts";

describe("gold values", () => {
  it.each([
    ["a plain value", "acme", { present: true, value: "acme" }],
    ["the first concrete alternative", ["", "open", "OPEN"], { present: true, value: "open" }],
    ["a wrapped array value", [["bug", "ui"]], { present: true, value: ["bug", "ui"] }],
    ["matchers only", ["", { regex: "x" }, { any: true }], { present: false }],
    ["null is a value", [null], { present: true, value: null }],
    [
      "an object value that is not a matcher",
      { regex: "x", flags: "i" },
      { present: true, value: { regex: "x", flags: "i" } },
    ],
  ])("%s", (_label, expected, gold) => {
    expect(goldValue(expected)).toEqual(gold);
  });

  it("reads dict values as alternatives, one level deep, and lists of dicts by the schema", () => {
    const richText = [{ text: { content: "Q3 plan" } }];
    expect(goldValue({ title: [richText, ""], icon: ["", { any: true }] })).toEqual({
      present: true,
      value: { title: richText },
    });
    const attendees = [{ email: ["bob@acme.dev", "Bob@acme.dev"], optional: ["", false] }];
    const listOfDicts = { type: "array", items: { type: "object" } };
    expect(goldValue([attendees], listOfDicts)).toEqual({
      present: true,
      value: [{ email: "bob@acme.dev", optional: false }],
    });
    expect(goldValue([["a", "b"]], { type: "array", items: { type: "string" } })).toEqual({
      present: true,
      value: ["a", "b"],
    });
  });

  it("builds the gold call, leaving out parameters without a gold value", () => {
    expect(goldArgs({ tool: "t", args: { a: ["x", ""], b: ["", { any: true }], c: [1, 2] } })).toEqual({
      a: "x",
      c: 1,
    });
    expect(mayOmit(["x", ""])).toBe(true);
    expect(mayOmit("")).toBe(false);
  });
});

describe("answer check", () => {
  it.each([
    [{ contains: ["login fails"] }, "Created “Login Fails” (#12).", true],
    [{ contains: ["#12", "login"] }, "Created #13 login", false],
    [{ anyOf: ["Paris", "paris, france"] }, "It is PARIS.", true],
    [{ notContains: ["error"] }, "An Error occurred", false],
    [{ regex: "\\b4[0-9]\\b" }, "It took 42 tries", true],
  ])("%j on %j → %s", (check, text, pass) => {
    expect(checkAnswer(check, text).pass).toBe(pass);
  });
});

describe("dataset regexes", () => {
  it("are case-insensitive and accept a leading PCRE (?i)", () => {
    expect(datasetRegex("(?i)login fails").test("LOGIN FAILS")).toBe(true);
    expect(datasetRegex("^v\\d+").test("V12")).toBe(true);
    expect(() => datasetRegex("(?x)oops")).toThrow();
  });
});

describe("near-duplicate similarity", () => {
  it("is token Jaccard over lowercase words, ignoring punctuation", () => {
    expect(jaccard(queryTokens("Close issue #12, please"), queryTokens("close ISSUE 12 please"))).toBe(1);
    expect(jaccard(queryTokens("list open issues"), queryTokens("list closed issues"))).toBe(0.5);
    expect(jaccard(queryTokens(""), queryTokens(""))).toBe(1);
  });
});
