import { describe, expect, it } from "vitest";
import { MAX_NESTING_DEPTH, textDepth, tooDeep, valueDepth } from "./nesting.ts";

function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level++) value = level % 2 === 0 ? [value] : { k: value };
  return value;
}

describe("valueDepth", () => {
  it("counts arrays and objects, not scalars", () => {
    expect(valueDepth("text")).toBe(0);
    expect(valueDepth(null)).toBe(0);
    expect(valueDepth([])).toBe(1);
    expect(valueDepth({ a: [1, { b: "x" }], c: 2 })).toBe(3);
  });

  it("stops one past the limit, at any depth (no recursion)", () => {
    expect(valueDepth(nested(100_000), 10)).toBe(11);
    expect(tooDeep(nested(MAX_NESTING_DEPTH))).toBe(false);
    expect(tooDeep(nested(MAX_NESTING_DEPTH + 1))).toBe(true);
  });
});

describe("textDepth", () => {
  it("is the deepest bracket nesting, brackets in strings included", () => {
    expect(textDepth("no brackets")).toBe(0);
    expect(textDepth('{"a": [1, (2)], "b": {}}')).toBe(3);
    expect(textDepth('"[[["')).toBe(3);
    expect(textDepth("]]][")).toBe(1);
  });
});
