import { describe, expect, it } from "vitest";
import { coerceArguments } from "./coerce.ts";

const schema = {
  type: "object",
  properties: {
    issue_number: { type: "number" },
    perPage: { type: "integer" },
    draft: { type: "boolean" },
    labels: { type: "array", items: { type: "string" } },
    ids: { type: "array", items: { type: "integer" } },
    filter: { type: "object", properties: { limit: { type: "number" } } },
    title: { type: "string" },
    milestone: { type: ["number", "null"] },
    state: { enum: ["OPEN", "CLOSED"] },
  },
};

describe("coerceArguments", () => {
  it.each([
    ["issue_number", "42", 42, "issue_number: string→number"],
    ["issue_number", " 3.5 ", 3.5, "issue_number: string→number"],
    ["perPage", "10", 10, "perPage: string→integer"],
    ["draft", "TRUE", true, "draft: string→boolean"],
    ["draft", "false", false, "draft: string→boolean"],
    ["labels", '["bug","ui"]', ["bug", "ui"], "labels: string→array"],
    ["labels", "bug", ["bug"], "labels: string→array"],
    ["title", 123, "123", "title: integer→string"],
    ["milestone", "7", 7, "milestone: string→number"],
    ["milestone", "null", null, "milestone: string→null"],
  ])("%s: %j → %j", (key, input, expected, note) => {
    const result = coerceArguments(schema, { [key]: input });
    expect(result.args[key]).toEqual(expected);
    expect(result.coerced).toEqual([note]);
    expect(result.problems).toEqual([]);
  });

  it("coerces inside arrays and objects", () => {
    const result = coerceArguments(schema, { ids: ["1", 2], filter: '{"limit":"5"}' });
    expect(result.args).toEqual({ ids: [1, 2], filter: { limit: 5 } });
    expect(result.coerced).toEqual(["ids[0]: string→integer", "filter: string→object", "filter.limit: string→number"]);
  });

  it.each([
    ["issue_number", "forty-two", 'issue_number: expected number, got string "forty-two"'],
    ["perPage", "2.5", 'perPage: expected integer, got string "2.5"'],
    ["draft", "yes", 'draft: expected boolean, got string "yes"'],
    ["filter", "{not json", 'filter: expected object, got string "{not json"'],
  ])("never changes what it cannot coerce: %s=%j", (key, input, problem) => {
    const result = coerceArguments(schema, { [key]: input });
    expect(result.args[key]).toBe(input);
    expect(result.problems).toEqual([problem]);
    expect(result.coerced).toEqual([]);
  });

  it("leaves a JSON string nested past the limit as it is, a problem (its value could not be recorded)", () => {
    const deep = `${'{"k":'.repeat(40)}1${"}".repeat(40)}`;
    const result = coerceArguments(schema, { filter: deep });
    expect(result.args.filter).toBe(deep);
    expect(result.problems).toEqual([expect.stringMatching(/^filter: expected object, got string/)]);
    expect(coerceArguments(schema, { filter: '{"k":{"k":1}}' }).args.filter).toEqual({ k: { k: 1 } });
  });

  it("matches an enum value case-insensitively when exactly one option fits", () => {
    expect(coerceArguments(schema, { state: "open" })).toEqual({
      args: { state: "OPEN" },
      coerced: ['state: enum case "open"→"OPEN"'],
      problems: [],
    });
    expect(coerceArguments(schema, { state: "opened" }).args.state).toBe("opened");
  });

  it("leaves values that already fit, enums and unknown parameters alone", () => {
    const args = { issue_number: 5, state: "OPEN", extra: "x", labels: ["a"] };
    expect(coerceArguments(schema, args)).toEqual({ args, coerced: [], problems: [] });
  });
});
