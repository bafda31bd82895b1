import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BfclInputError } from "./errors.ts";
import { SAMPLE_MODEL, type SampleDirs, writeSample } from "./testing/sample.ts";
import type { BfclVerdict } from "./types.ts";
import { type ModelUplift, runUplift, type UpliftEntry } from "./uplift.ts";
import { summarizeUplift } from "./uplift-summary.ts";

let sample: SampleDirs;
let uplift: ModelUplift;

beforeAll(async () => {
  sample = writeSample();
  [uplift] = (await runUplift([{ model: SAMPLE_MODEL, resultDir: sample.resultDir }], {
    dataDir: sample.dataDir,
  })) as [ModelUplift];
});
afterAll(() => rmSync(sample.root, { recursive: true, force: true }));

function entry(id: string): UpliftEntry {
  const found = uplift.categories.flatMap((c) => c.entries).find((e) => e.id === id);
  if (!found) throw new Error(`no entry ${id}`);
  return found;
}

const text = (v: BfclVerdict) => (v.valid ? "pass" : v.errorType);
const verdicts = (id: string) => Object.fromEntries(Object.entries(entry(id).verdicts).map(([k, v]) => [k, text(v)]));

describe("bfcl uplift: recorded outputs through the pipeline, scored at every checkpoint", () => {
  it("a passing output passes at every checkpoint and is sent as written", () => {
    expect(new Set(Object.values(verdicts("simple_0")))).toEqual(new Set(["pass"]));
    expect(entry("simple_0").sent).toEqual([{ tool: "calc.area", args: { base: 10, height: 5 } }]);
  });

  it("a missing required value: the step is not sent, then rescue finds it in the query", () => {
    expect(verdicts("simple_1")).toEqual({
      recorded: "simple_function_checker:missing_required",
      parsed: "simple_function_checker:missing_required",
      validated: "simple_function_checker:wrong_count",
      prepared: "simple_function_checker:wrong_count",
      final: "pass",
    });
    expect(entry("simple_1").repairs).toEqual(["#E1: rescued number=5 (number)"]);
    expect(entry("simple_1").sent).toEqual([{ tool: "math.factorial", args: { number: 5 } }]);
  });

  it("a camelCase key is renamed to the schema's spelling (a repair)", () => {
    expect(verdicts("simple_2")).toMatchObject({
      validated: "simple_function_checker:unexpected_param",
      prepared: "pass",
    });
    expect(entry("simple_2").repairs).toEqual(["#E1: renamed unitSystem→unit_system"]);
  });

  it("a string for an integer is coerced (a repair)", () => {
    expect(verdicts("simple_3")).toMatchObject({ recorded: "type_error:simple", prepared: "pass", final: "pass" });
    expect(entry("simple_3").sent).toEqual([{ tool: "set_volume", args: { level: 7 } }]);
  });

  it("a tuple and a list of calls are read as BFCL reads them", () => {
    expect(new Set(Object.values(verdicts("simple_4")))).toEqual(new Set(["pass"]));
    expect(entry("simple_4").sent).toEqual([{ tool: "distance", args: { point: [1.5, 2.5] } }]);
    expect(entry("parallel_0").callCounts).toEqual({ recorded: 2, parsed: 2, final: 2 });
    expect(new Set(Object.values(verdicts("parallel_0")))).toEqual(new Set(["pass"]));
  });

  it("a pass the pipeline breaks is kept as broken, at the stage that broke it", () => {
    // BFCL accepts the variable `data['sales']` for an array; coercion wraps the string into a list
    expect(verdicts("simple_5")).toEqual({
      recorded: "pass",
      parsed: "pass",
      validated: "pass",
      prepared: "value_error:others",
      final: "value_error:others",
    });
    expect(entry("simple_5").sent).toEqual([{ tool: "fit_line", args: { x: ["data['sales']"] } }]);
  });

  it("the summary counts fixes and breaks per stage, per error type, and the dropped calls", () => {
    const summary = summarizeUplift([uplift]);
    const [model] = summary.models;
    const simple = model!.categories.find((c) => c.category === "simple")!;
    expect(simple).toMatchObject({
      entries: 6,
      bfclCorrect: 3,
      strictCorrect: 3,
      finalCorrect: 5,
      fixed: 3,
      broken: 1,
      stages: {
        parser: { fixed: 0, broken: 0 },
        validation: { fixed: 0, broken: 0 },
        preparation: { fixed: 2, broken: 1 },
        rescue: { fixed: 1, broken: 0 },
      },
    });
    expect(simple.errorTypes).toEqual([
      { errorType: "simple_function_checker:missing_required", failing: 1, fixed: 1, brokenInto: 0 },
      { errorType: "simple_function_checker:unexpected_param", failing: 1, fixed: 1, brokenInto: 0 },
      { errorType: "type_error:simple", failing: 1, fixed: 1, brokenInto: 0 },
      { errorType: "value_error:others", failing: 0, fixed: 0, brokenInto: 1 },
    ]);
    const parallel = model!.categories.find((c) => c.category === "parallel")!;
    expect(parallel).toMatchObject({
      broken: 0,
      callsDroppedByParser: 0,
      parserChangesWithDroppedCalls: { fixed: 0, broken: 0 },
    });
    expect(model!.total).toMatchObject({ entries: 7, strictCorrect: 4, finalCorrect: 6, bfclCorrect: 4 });
  });

  it("two result folders with the same model name are bad input, not a silent overwrite", async () => {
    const twice = [
      { model: SAMPLE_MODEL, resultDir: sample.resultDir },
      { model: SAMPLE_MODEL, resultDir: sample.resultDir },
    ];
    await expect(runUplift(twice, { dataDir: sample.dataDir })).rejects.toThrow(BfclInputError);
  });
});
