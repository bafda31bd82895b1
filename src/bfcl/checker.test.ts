import { describe, expect, it } from "vitest";
import { decodeOutput } from "../python/decode-output.ts";
import { type PyValue, py } from "../python/value.ts";
import { checkEntry } from "./checker.ts";
import type { BfclFunctionDoc, BfclVerdict, ExpectedCall } from "./types.ts";

const area: BfclFunctionDoc = {
  name: "geometry.area",
  parameters: {
    type: "dict",
    properties: { base: { type: "integer" }, height: { type: "float" }, unit: { type: "string" } },
    required: ["base", "height"],
  },
};
const weather: BfclFunctionDoc = {
  name: "weather",
  parameters: { type: "dict", properties: { city: { type: "string" } }, required: ["city"] },
};

function expectCall(name: string, args: Record<string, PyValue[]>): ExpectedCall {
  return { name, args: new Map(Object.entries(args)) };
}
const areaAnswer = expectCall("geometry.area", {
  base: [py.int(10)],
  height: [py.float(5)],
  unit: [py.str("cm"), py.str("")],
});
const weatherIn = (city: string) => expectCall("weather", { city: [py.str(city)] });

function verdict(category: string, output: string, expected: ExpectedCall[], docs = [area, weather]): string {
  const v: BfclVerdict = checkEntry(category, docs, decodeOutput(output), expected);
  return v.valid ? "valid" : v.errorType;
}

describe("checkEntry", () => {
  it.each([
    ["simple", "geometry.area(base=10, height=5)", "valid"],
    ["simple", "geometry.area(base=10, height=5.0, unit='CM')", "valid"],
    ["simple", "[geometry.area(base=10, height=5), weather(city='x')]", "simple_function_checker:wrong_count"],
    ["simple", "area(base=10, height=5)", "simple_function_checker:wrong_func_name"],
    ["simple", "geometry.area(base=10)", "simple_function_checker:missing_required"],
    ["simple", "geometry.area(base=10, height=5, color='red')", "simple_function_checker:unexpected_param"],
    ["simple", "geometry.area(base='10', height=5)", "type_error:simple"],
    ["simple", "geometry.area(base=11, height=5)", "value_error:others"],
    ["simple", "geometry.area(base=10, height=5, unit='m')", "value_error:string"],
    ["simple", "geometry.area(base=10, height=5", "ast_decoder:decoder_failed"],
  ])("%s: %s → %s", (category, output, expected) => {
    expect(verdict(category, output, [areaAnswer])).toBe(expected);
  });

  it("multiple: one call, checked against the expected function among several docs", () => {
    const docs = [weather, area];
    expect(verdict("multiple", "geometry.area(base=10, height=5)", [areaAnswer], docs)).toBe("valid");
    expect(verdict("multiple", "weather(city='Paris')", [areaAnswer], docs)).toBe(
      "simple_function_checker:wrong_func_name",
    );
    expect(verdict("multiple", "[weather(city='P'), weather(city='Q')]", [areaAnswer], docs)).toBe(
      "multiple_function_checker:wrong_count",
    );
  });

  it("missing_optional when an expected parameter may not be omitted", () => {
    const strict = expectCall("geometry.area", { base: [py.int(10)], height: [py.float(5)], unit: [py.str("cm")] });
    expect(verdict("simple", "geometry.area(base=10, height=5)", [strict])).toBe(
      "simple_function_checker:missing_optional",
    );
  });

  it("parallel: same count, each expected call matched by a distinct call in any order", () => {
    const expected = [weatherIn("Paris"), weatherIn("Rome")];
    expect(verdict("parallel", "[weather(city='Rome'), weather(city='paris')]", expected)).toBe("valid");
    expect(verdict("parallel", "[weather(city='Rome')]", expected)).toBe(
      "parallel_function_checker_no_order:wrong_count",
    );
    expect(verdict("parallel", "[weather(city='Rome'), weather(city='Rome')]", expected)).toBe(
      "parallel_function_checker_no_order:cannot_find_match",
    );
  });

  it("parallel_multiple: mixed functions, any order; the error lists every attempt", () => {
    const expected = [areaAnswer, weatherIn("Oslo")];
    expect(verdict("parallel_multiple", "[weather(city='Oslo'), geometry.area(base=10, height=5)]", expected)).toBe(
      "valid",
    );
    const v = checkEntry(
      "parallel_multiple",
      [area, weather],
      decodeOutput("[weather(city='Oslo'), geometry.area(base=1, height=5)]"),
      expected,
    );
    expect(v.valid).toBe(false);
    if (!v.valid) {
      expect(v.error[0]).toBe(
        "Could not find a matching function among index [0, 1] of model output for index 0 of possible answers.",
      );
      expect(v.error.slice(1).map((e) => e.split(":")[1]?.trim())).toEqual(["simple_function_checker", "value_error"]);
    }
  });

  it("irrelevance: passes when no call decodes, fails when one does", () => {
    expect(verdict("irrelevance", "I cannot help with that.", [])).toBe("valid");
    expect(verdict("irrelevance", "[]", [])).toBe("valid");
    expect(verdict("irrelevance", "weather(city='Oslo')", [])).toBe("irrelevance_error:decoder_success");
  });

  it("a malformed ground-truth call counts but can never match", () => {
    const broken: ExpectedCall = { name: "deck", args: new Map(), problem: "ground-truth arguments are not an object" };
    expect(verdict("parallel", "[weather(city='Oslo'), weather(city='x')]", [weatherIn("Oslo"), broken])).toBe(
      "parallel_function_checker_no_order:cannot_find_match",
    );
  });

  it("dotsAsUnderscores matches function-calling names", () => {
    const v = checkEntry("simple", [area], decodeOutput([{ geometry_area: { base: 10, height: 5 } }]), [areaAnswer], {
      dotsAsUnderscores: true,
    });
    expect(v.valid).toBe(true);
  });
});
