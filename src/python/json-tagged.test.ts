import { describe, expect, it } from "vitest";
import { JsonSyntaxError, parseTaggedJson } from "./json-tagged.ts";
import { pyRepr } from "./value.ts";

describe("parseTaggedJson", () => {
  it.each([
    ['{"a": [1, 1.0, 1e2, -0.5, 10]}', "{'a': [1, 1.0, 100.0, -0.5, 10]}"],
    ['["x\\"y\\u00e9", true, false, null]', `['x"yé', True, False, None]`],
    ['{"k": 1, "k": 2, "j": 3}', "{'k': 2, 'j': 3}"],
    [" [ ] ", "[]"],
    // Digits-only keys keep their source order (a JS object would move them first).
    ['{"b": 1, "10": 2, "2": 3}', "{'b': 1, '10': 2, '2': 3}"],
    ['[2.5, 3, -7, 0.125, "5.0 in a string"]', "[2.5, 3, -7, 0.125, '5.0 in a string']"],
    ['{"x": {"y": [{"z": 12.75}]}}', "{'x': {'y': [{'z': 12.75}]}}"],
  ])("%s", (text, repr) => {
    expect(pyRepr(parseTaggedJson(text))).toBe(repr);
  });

  it.each(["{a: 1}", "[1,]", '"x', "01", "[1] 2", "tru", '"\\x"'])("rejects %s", (text) => {
    expect(() => parseTaggedJson(text)).toThrow(JsonSyntaxError);
  });
});
