import { describe, expect, it } from "vitest";
import { pyRepr } from "../bench/scoring/arg-match.ts";
import { JsonSyntaxError, parseTaggedJson } from "./json-tagged.ts";

describe("parseTaggedJson", () => {
  it.each([
    ['{"a": [1, 1.0, 1e2, -0.5, 10]}', "{'a': [1, 1.0, 100.0, -0.5, 10]}"],
    ['["x\\"y\\u00e9", true, false, null]', `['x"yé', True, False, None]`],
    ['{"k": 1, "k": 2, "j": 3}', "{'k': 2, 'j': 3}"],
    [" [ ] ", "[]"],
  ])("%s", (text, repr) => {
    expect(pyRepr(parseTaggedJson(text))).toBe(repr);
  });

  it.each(["{a: 1}", "[1,]", '"x', "01", "[1] 2", "tru", '"\\x"'])("rejects %s", (text) => {
    expect(() => parseTaggedJson(text)).toThrow(JsonSyntaxError);
  });
});
