import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { matchJsonArgs } from "../bench/scoring/arg-match.ts";
import { type PyValue, py } from "../python/value.ts";
import { loadPossibleAnswers, loadQuestions } from "./data.ts";
import { bfclDifficulty, bfclFunctionToTool, bfclQuestionToItem, bfclTypeToJsonSchema } from "./import.ts";
import { DEFAULT_BFCL_DATA_DIR } from "./paths.ts";
import { sharedBfclPresent } from "./testing/shared.ts";
import type { BfclFunctionDoc, BfclQuestion } from "./types.ts";

const sharedPresent = sharedBfclPresent("BFCL import test of the whole shared sample");

const doc: BfclFunctionDoc = {
  name: "calc.area",
  description: "Area of a shape.",
  parameters: {
    type: "dict",
    properties: {
      base: { type: "integer", description: "Base." },
      ratio: { type: "float", default: 1.5 },
      unit: { type: "string", enum: ["cm", "m"], optional: true },
      point: { type: "tuple", items: { type: "float" } },
      tags: { type: "array", items: { type: "string" } },
      opts: { type: "dict", properties: { fast: { type: "boolean" } }, required: ["fast"] },
      anything: { type: "any" },
    },
    required: ["base"],
  },
};

describe("BFCL types → JSON Schema", () => {
  it.each([
    [{ type: "integer" }, { type: "integer" }],
    [{ type: "float" }, { type: "number" }],
    [
      { type: "string", enum: ["a"] },
      { type: "string", enum: ["a"] },
    ],
    [
      { type: "boolean", description: "d" },
      { type: "boolean", description: "d" },
    ],
    [
      { type: "tuple", items: { type: "float" } },
      { type: "array", items: { type: "number" } },
    ],
    [
      { type: "array", items: { type: "dict", properties: { k: { type: "integer" } } } },
      { type: "array", items: { type: "object", properties: { k: { type: "integer" } } } },
    ],
    [{ type: "any", description: "x" }, { description: "x" }],
  ])("%j → %j", (bfcl, schema) => {
    expect(bfclTypeToJsonSchema(bfcl)).toEqual(schema);
  });

  it("function doc → MCP tool definition", () => {
    const tool = bfclFunctionToTool(doc);
    expect(tool.name).toBe("calc.area");
    expect(tool.description).toBe("Area of a shape.");
    expect(tool.inputSchema).toMatchObject({
      type: "object",
      required: ["base"],
      properties: {
        ratio: { type: "number", default: 1.5 },
        unit: { type: "string", enum: ["cm", "m"] },
        opts: { type: "object", properties: { fast: { type: "boolean" } }, required: ["fast"] },
        anything: {},
      },
    });
    expect(tool.inputSchema.properties).not.toHaveProperty("unit.optional");
  });
});

describe("BFCL question → dataset item", () => {
  const question: BfclQuestion = {
    id: "parallel_3",
    question: [
      [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Areas for 10 and 20?" },
      ],
    ],
    function: [doc],
  };
  const expected = [10, 20].map((b) => ({
    name: "calc.area",
    args: new Map([
      ["base", [py.int(b)]],
      ["ratio", [py.float(1.5), py.str("")]],
    ]),
  }));

  it("carries query, tools, calls with acceptable-value lists, and the category mapping", () => {
    const item = bfclQuestionToItem("parallel", question, expected);
    expect(item).toEqual({
      id: "parallel_3",
      query: "Areas for 10 and 20?",
      category: "parallel",
      servers: ["bfcl"],
      tools: ["calc.area"],
      route: "rewoo",
      calls: [
        { tool: "calc.area", args: { base: [10], ratio: [1.5, ""] } },
        { tool: "calc.area", args: { base: [20], ratio: [1.5, ""] } },
      ],
      order: "any",
      difficulty: "medium",
      tags: ["bfcl", "bfcl:parallel"],
      messages: [{ role: "system", content: "Be brief." }],
    });
  });

  it("the item category follows the answer: one call is single whatever BFCL's label, none is irrelevant", () => {
    expect(bfclQuestionToItem("parallel", question, [expected[0]!])).toMatchObject({
      category: "single",
      order: "sequence",
    });
    expect(bfclQuestionToItem("multiple", question, [expected[0]!]).category).toBe("single");
  });

  it("difficulty: by calls, by arguments to give (omittable ones do not count), by functions offered", () => {
    const call = (given: number, omittable = 0) => ({
      name: "f",
      args: new Map<string, PyValue[]>([
        ...Array.from({ length: given }, (_, i): [string, PyValue[]] => [`p${i}`, [py.int(i)]]),
        ...Array.from({ length: omittable }, (_, i): [string, PyValue[]] => [`o${i}`, [py.int(i), py.str("")]]),
      ]),
    });
    expect(bfclDifficulty(1, [call(2, 3)])).toBe("easy");
    expect(bfclDifficulty(1, [])).toBe("easy");
    expect(bfclDifficulty(2, [call(1)])).toBe("medium");
    expect(bfclDifficulty(1, [call(3)])).toBe("medium");
    expect(bfclDifficulty(1, [call(1), call(1)])).toBe("medium");
    expect(bfclDifficulty(1, [call(5)])).toBe("hard");
    expect(bfclDifficulty(1, [call(1), call(1), call(1)])).toBe("hard");
  });

  it("irrelevance → an irrelevant, direct item with no calls", () => {
    const item = bfclQuestionToItem("irrelevance", { ...question, id: "irrelevance_0" });
    expect(item).toMatchObject({ category: "irrelevant", route: "direct", calls: [], order: "sequence" });
  });

  it("the imported args are matched by the bench's json-mode matcher", () => {
    const item = bfclQuestionToItem("simple", question, [expected[0]!]);
    const tool = bfclFunctionToTool(doc);
    expect(matchJsonArgs({ base: 10 }, item.calls[0]!.args, tool.inputSchema).valid).toBe(true);
    expect(matchJsonArgs({ base: 10, ratio: 1.5 }, item.calls[0]!.args, tool.inputSchema).valid).toBe(true);
    expect(matchJsonArgs({ base: 11 }, item.calls[0]!.args, tool.inputSchema).valid).toBe(false);
  });

  it.skipIf(!sharedPresent)("converts every shared BFCL question and tool", () => {
    for (const category of ["simple", "multiple", "parallel", "parallel_multiple"]) {
      const answers = loadPossibleAnswers(join(DEFAULT_BFCL_DATA_DIR, "possible_answer", `BFCL_v3_${category}.json`));
      for (const q of loadQuestions(join(DEFAULT_BFCL_DATA_DIR, `BFCL_v3_${category}.json`))) {
        const item = bfclQuestionToItem(category, q, answers.get(q.id));
        expect(item.calls.length).toBe(answers.get(q.id)!.length);
        expect(item.query.length).toBeGreaterThan(0);
        for (const f of q.function) expect(bfclFunctionToTool(f).inputSchema.type).toBe("object");
      }
    }
  });
});
