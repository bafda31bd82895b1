import { describe, expect, it } from "vitest";
import { fromJson, type PyValue, py } from "../../python/value.ts";
import {
  ArgMatchSpecError,
  type ArgVerdict,
  type CallSchema,
  checkArgValue,
  checkCallArgs,
  type MatchMode,
  matchJsonArgs,
  normalizeString,
  type ParamSchema,
} from "./arg-match.ts";

const { int, float, str, bool, list, tuple, dict } = py;
const kv = (entries: Record<string, PyValue>) => dict(Object.entries(entries).map(([k, v]) => [str(k), v] as const));

function errorTypeOf(v: ArgVerdict): string {
  return v.valid ? "valid" : v.errorType;
}

describe("string normalisation", () => {
  it("normalises strings as BFCL: drops spaces and , . / - _ * ^, lowercases, ' → \"", () => {
    expect(normalizeString("New York, NY")).toBe("newyorkny");
    expect(normalizeString("A-b_c*d^e/f.g")).toBe("abcdefg");
    expect(normalizeString("it's")).toBe('it"s');
    expect(normalizeString("tab\tkept")).toBe("tab\tkept");
  });
});

describe("checkArgValue (BFCL mode)", () => {
  const check = (value: PyValue, acceptable: PyValue[], schema: ParamSchema, mode: MatchMode = "bfcl") =>
    errorTypeOf(checkArgValue("p", value, acceptable, schema, mode));

  it.each([
    ["int for integer", int(5), [int(5)], { type: "integer" }, "valid"],
    ["int accepted for float (promoted)", int(5), [float(5)], { type: "float" }, "valid"],
    ["float for integer", float(5), [int(5)], { type: "integer" }, "type_error:simple"],
    ["bool is not an integer", bool(true), [int(1)], { type: "integer" }, "type_error:simple"],
    ["string '5' for integer", str("5"), [int(5)], { type: "integer" }, "type_error:simple"],
    [
      "tuple read as list for tuple params",
      tuple([int(1), int(2)]),
      [list([int(1), int(2)])],
      { type: "tuple" },
      "valid",
    ],
    ["tuple is not an array", tuple([int(1)]), [list([int(1)])], { type: "array" }, "type_error:simple"],
    ["any means str in BFCL", int(1), [str("1")], { type: "any" }, "type_error:simple"],
    ["wrong int value", int(6), [int(5)], { type: "integer" }, "value_error:others"],
    ["int equals float answer", float(2), [int(2)], { type: "float" }, "valid"],
    ["string normalised", str("new york, ny"), [str("New York NY")], { type: "string" }, "valid"],
    ["wrong string", str("Boston"), [str("New York")], { type: "string" }, "value_error:string"],
    [
      "list element-wise, strings normalised",
      list([str("A b")]),
      [list([str("ab")])],
      { type: "array", items: { type: "string" } },
      "valid",
    ],
    [
      "list order matters",
      list([int(2), int(1)]),
      [list([int(1), int(2)])],
      { type: "array", items: { type: "integer" } },
      "value_error:list/tuple",
    ],
    [
      "nested item type",
      list([int(1), int(3)]),
      [list([float(1), float(3)])],
      { type: "array", items: { type: "float" } },
      "type_error:nested",
    ],
    [
      "nested check passes via the omit marker",
      list([int(2)]),
      [str(""), list([float(1)])],
      { type: "array", items: { type: "float" } },
      "value_error:list/tuple",
    ],
  ] as const)("%s", (_label, value, acceptable, schema, expected) => {
    expect(check(value, [...acceptable], schema)).toBe(expected);
  });

  it("accepts a value of the answers' type when answers disagree with the doc (a variable)", () => {
    // A doc says integer, the answer is the variable name "x": the string "x" passes, compared exactly.
    expect(check(str("x"), [str("x")], { type: "integer" })).toBe("valid");
    expect(check(str("X"), [str("x")], { type: "integer" })).toBe("value_error:others");
  });

  it("checks dicts key by key with normalised strings and optional keys", () => {
    const schema = { type: "dict" };
    const answer = kv({ min: list([int(1)]), max: list([int(9)]), unit: list([str("USD"), str("")]) });
    expect(check(kv({ min: int(1), max: int(9) }), [answer], schema)).toBe("valid");
    expect(check(kv({ min: int(1), max: int(9), unit: str("usd") }), [answer], schema)).toBe("valid");
    expect(check(kv({ min: int(1) }), [answer], schema)).toBe("value_error:dict_key");
    expect(check(kv({ min: int(1), max: int(9), cap: int(3) }), [answer], schema)).toBe("value_error:dict_key");
    expect(check(kv({ min: int(2), max: int(9) }), [answer], schema)).toBe("value_error:dict_value");
    expect(check(kv({ min: int(1) }), [str("")], schema)).toBe("dict_checker:unclear");
    // BFCL stops at the bad value but still looks for missing keys, and that error wins.
    expect(check(kv({ min: int(2) }), [answer], schema)).toBe("value_error:dict_key");
  });

  it("checks lists of dicts in order and by count", () => {
    const schema = { type: "array", items: { type: "dict" } };
    const answer = [list([kv({ a: list([int(1)]) }), kv({ a: list([int(2)]) })])];
    expect(check(list([kv({ a: int(1) }), kv({ a: int(2) })]), answer, schema)).toBe("valid");
    expect(check(list([kv({ a: int(1) })]), answer, schema)).toBe("value_error:list_dict_count");
    expect(check(list([kv({ a: int(2) }), kv({ a: int(1) })]), answer, schema)).toBe("value_error:dict_value");
  });

  it("json mode: a JSON number's int/float form does not matter, values still do", () => {
    expect(check(float(5), [int(5)], { type: "integer" }, "json")).toBe("valid");
    expect(check(float(5.5), [int(5)], { type: "integer" }, "json")).toBe("type_error:simple");
    expect(check(int(5), [float(5)], { type: "number" }, "json")).toBe("valid");
    expect(check(str("5"), [int(5)], { type: "number" }, "json")).toBe("type_error:simple");
    expect(check(bool(true), [int(1)], { type: "integer" }, "json")).toBe("type_error:simple");
    expect(check(int(1), [str("1")], { type: "any" }, "json")).toBe("value_error:others");
  });

  it("regex and any extensions for free text", () => {
    const regex = fromJson({ regex: "^Login (fails|broken)" });
    const any = fromJson({ any: true });
    expect(check(str("Login fails on Safari"), [regex], { type: "string" })).toBe("valid");
    expect(check(str("Logout fails"), [regex], { type: "string" })).toBe("value_error:string");
    expect(check(str("whatever"), [any], { type: "string" })).toBe("valid");
    expect(check(int(3), [any], { type: "string" })).toBe("type_error:simple");
    expect(() => check(str("x"), [fromJson({ regex: "(" })], { type: "string" })).toThrow(ArgMatchSpecError);
  });
});

describe("checkCallArgs", () => {
  const schema: CallSchema = {
    properties: { base: { type: "integer" }, height: { type: "integer" }, unit: { type: "string" } },
    required: ["base", "height"],
  };
  const expected = new Map<string, PyValue[]>([
    ["base", [int(10)]],
    ["height", [int(5)]],
    ["unit", [str("units"), str("")]],
  ]);
  const run = (args: Record<string, PyValue>, exp = expected) =>
    checkCallArgs(new Map(Object.entries(args)), exp, schema, "bfcl");

  it("passes a correct call with the optional parameter omitted", () => {
    const verdict = run({ base: int(10), height: int(5) });
    expect(verdict.valid).toBe(true);
    expect([...verdict.params.keys()]).toEqual(["base", "height"]);
  });

  it("reports the first failure in BFCL's order, and a verdict per parameter", () => {
    const verdict = run({ base: int(9), unit: str("cm"), color: str("red") });
    expect(verdict.failure?.errorType).toBe("missing_required");
    expect(verdict.failure?.verdict.error).toBe("Missing required parameter: 'height'.");
    expect(Object.fromEntries([...verdict.params].map(([k, v]) => [k, errorTypeOf(v)]))).toEqual({
      height: "missing_required",
      base: "value_error:others",
      unit: "value_error:string",
      color: "unexpected_param",
    });
  });

  it("unexpected_param: absent from the doc or from the expected answer", () => {
    expect(run({ base: int(10), height: int(5), color: str("red") }).failure?.errorType).toBe("unexpected_param");
    const noUnit = new Map([...expected].filter(([k]) => k !== "unit"));
    expect(run({ base: int(10), height: int(5), unit: str("units") }, noUnit).failure?.errorType).toBe(
      "unexpected_param",
    );
  });

  it("missing_optional: an expected parameter without the omit marker must be given", () => {
    const mustGiveUnit = new Map([...expected, ["unit", [str("units")]]]);
    expect(run({ base: int(10), height: int(5) }, mustGiveUnit).failure?.errorType).toBe("missing_optional");
  });
});

describe("matchJsonArgs (the bench's entry point)", () => {
  const inputSchema = {
    type: "object",
    properties: { owner: { type: "string" }, limit: { type: "integer" }, labels: { type: "array" } },
    required: ["owner"],
  };

  it('matches dataset forms: a value, a list of alternatives, "" = may be omitted', () => {
    const expected = { owner: "acme", limit: [10, ""], labels: [["bug", "ui"]] };
    expect(matchJsonArgs({ owner: "ACME", labels: ["Bug", "UI"] }, expected, inputSchema).valid).toBe(true);
    expect(matchJsonArgs({ owner: "acme", limit: 10.0, labels: ["bug", "ui"] }, expected, inputSchema).valid).toBe(
      true,
    );
    const wrong = matchJsonArgs({ owner: "acme", limit: 11, labels: ["bug", "ui"] }, expected, inputSchema);
    expect(wrong.failure?.errorType).toBe("value_error:others");
  });

  it("without a schema: nothing required, no type check, values still compared", () => {
    expect(matchJsonArgs({ q: "Paris" }, { q: ["paris", "Paris, FR"] }).valid).toBe(true);
    expect(matchJsonArgs({ q: "Lyon" }, { q: ["paris"] }).failure?.errorType).toBe("value_error:string");
    expect(matchJsonArgs({ q: "x", extra: 1 }, { q: "x" }).failure?.errorType).toBe("unexpected_param");
  });
});

describe("matchJsonArgs caching", () => {
  it("gives the same verdicts when the same expected and schema objects are reused", () => {
    const expected = { owner: "acme", title: ["Login fails", ""] };
    const inputSchema = {
      type: "object",
      properties: { owner: { type: "string" }, title: { type: "string" } },
      required: ["owner"],
    };
    for (let round = 0; round < 3; round++) {
      expect(matchJsonArgs({ owner: "ACME" }, expected, inputSchema).valid).toBe(true);
      expect(matchJsonArgs({ owner: "acme", title: "login-fails" }, expected, inputSchema).valid).toBe(true);
      expect(matchJsonArgs({ title: "Login fails" }, expected, inputSchema).failure?.errorType).toBe(
        "missing_required",
      );
      expect(matchJsonArgs({ owner: "acme", title: "Crash" }, expected, inputSchema).failure?.errorType).toBe(
        "value_error:string",
      );
    }
  });
});
