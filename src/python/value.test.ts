import { describe, expect, it } from "vitest";
import { fromJson, type PyValue, py, pyEquals, pyFloatRepr, pyRepr, toJson } from "./value.ts";

const { int, float, str, bool, list, tuple, dict, none } = py;
const kv = (entries: Record<string, PyValue>) => dict(Object.entries(entries).map(([k, v]) => [str(k), v] as const));

describe("value model", () => {
  it.each([
    [int(5), "5"],
    [float(5), "5.0"],
    [float(0.1), "0.1"],
    [float(1e-5), "1e-05"],
    [float(1e16), "1e+16"],
    [float(123456789012.5), "123456789012.5"],
    [float(-2.5e-7), "-2.5e-07"],
    [float(Number.POSITIVE_INFINITY), "inf"],
    [bool(true), "True"],
    [none(), "None"],
    [str("it's"), `"it's"`],
    [str('a"b\n'), `'a"b\\n'`],
    [tuple([int(1)]), "(1,)"],
    [list([int(1), str("x")]), "[1, 'x']"],
    [kv({ k: tuple([]) }), "{'k': ()}"],
  ])("repr %j → %s", (value, expected) => {
    expect(pyRepr(value)).toBe(expected);
  });

  it("compares as Python ==: numbers by value across int/float/bool, list ≠ tuple, dicts by keys", () => {
    expect(pyEquals(int(1), float(1))).toBe(true);
    expect(pyEquals(bool(true), int(1))).toBe(true);
    expect(pyEquals(str("1"), int(1))).toBe(false);
    expect(pyEquals(list([int(1)]), tuple([int(1)]))).toBe(false);
    expect(pyEquals(list([int(1), float(2)]), list([float(1), int(2)]))).toBe(true);
    expect(pyEquals(kv({ a: int(1), b: int(2) }), kv({ b: int(2), a: float(1) }))).toBe(true);
    expect(pyEquals(kv({ a: int(1) }), kv({ a: int(1), b: int(2) }))).toBe(false);
  });

  it("round-trips plain JSON (integral numbers become ints)", () => {
    const value = fromJson({ a: [1, 2.5, "x", null, true], b: {} });
    expect(pyRepr(value)).toBe("{'a': [1, 2.5, 'x', None, True], 'b': {}}");
    expect(toJson(value)).toEqual({ a: [1, 2.5, "x", null, true], b: {} });
  });

  it("prints floats like Python's repr for a range of magnitudes", () => {
    for (const [x, repr] of [
      [1e-4, "0.0001"],
      [1.5e15, "1500000000000000.0"],
      [2 ** 60, "1.152921504606847e+18"],
      [-0, "-0.0"],
    ] as const) {
      expect(pyFloatRepr(x)).toBe(repr);
    }
  });
});
