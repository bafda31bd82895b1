import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  ATTRIBUTED_CATEGORIES,
  attributeBfclFailure,
  type BfclScoreEntry,
  meanShares,
  renderBfclShareTable,
  tallyBfclFailures,
} from "./bfcl-evidence.ts";
import { simCatalogue, simProfile } from "./catalog.ts";
import { SIM_ERROR_TYPES } from "./error-types.ts";
import { tableRows } from "./testing/markdown.ts";

const offered = {
  function: [{ name: "math.hcf", parameters: { properties: { number1: {}, number2: {} } } }, { name: "music.scale" }],
};
const failure = (entry: Partial<BfclScoreEntry> & { error_type: string }): BfclScoreEntry => ({
  prompt: offered,
  ...entry,
});

describe("attributing a BFCL failure to a mistake type", () => {
  it("tells a wrong function from a made-up one by whether it was offered", () => {
    const wrong = {
      error_type: "simple_function_checker:wrong_func_name",
      model_result_decoded: [{ "music.scale": {} }],
    };
    expect(attributeBfclFailure(failure(wrong))).toBe("wrong_tool");
    const madeUp = { ...wrong, model_result_decoded: [{ math_hcf: { number1: 36 } }] };
    expect(attributeBfclFailure(failure(madeUp))).toBe("hallucinated_tool");
  });

  it("splits missing parameters into positional, renamed and missing", () => {
    const base = { error_type: "simple_function_checker:missing_required" };
    expect(attributeBfclFailure(failure({ ...base, model_result_raw: "[math.hcf(36, number2=24)]" }))).toBe(
      "positional_args",
    );
    const renamed = {
      ...base,
      model_result_raw: "[math.hcf(n1=36, number2=24)]",
      model_result_decoded: [{ "math.hcf": { n1: 36, number2: 24 } }],
    };
    expect(attributeBfclFailure(failure(renamed))).toBe("wrong_param_name");
    const missing = {
      ...base,
      model_result_raw: "[math.hcf(number2=24)]",
      model_result_decoded: [{ "math.hcf": { number2: 24 } }],
    };
    expect(attributeBfclFailure(failure(missing))).toBe("missing_required_param");
  });

  it("splits undecodable output into prose, no call at all, and broken syntax", () => {
    const base = { error_type: "ast_decoder:decoder_failed" };
    expect(attributeBfclFailure(failure({ ...base, model_result_raw: "**[math.hcf(number1=36)]**" }))).toBe(
      "prose_around_call",
    );
    expect(attributeBfclFailure(failure({ ...base, model_result_raw: "Sure! Please provide more details." }))).toBe(
      "direct_answer_when_tool_needed",
    );
    expect(attributeBfclFailure(failure({ ...base, model_result_raw: '[math.hcf(number1="36)]' }))).toBe(
      "malformed_syntax",
    );
  });

  it("reads value and type errors as wrong values, a repeated call as a duplicate step", () => {
    expect(attributeBfclFailure(failure({ error_type: "value_error:string" }))).toBe("wrong_value");
    expect(attributeBfclFailure(failure({ error_type: "type_error:simple" }))).toBe("wrong_value");
    const twice = { error_type: "multiple_function_checker:wrong_count", model_result_decoded: [{ a: {} }, { a: {} }] };
    expect(attributeBfclFailure(failure(twice))).toBe("duplicate_steps");
    expect(attributeBfclFailure(failure({ ...twice, model_result_decoded: [{ a: {} }, { b: {} }] }))).toBe(
      "extra_call",
    );
  });

  it("refuses an error type it has no rule for", () => {
    expect(() =>
      attributeBfclFailure(failure({ error_type: "parallel_function_checker_no_order:cannot_find_match" })),
    ).toThrow(/no attribution/);
  });
});

// The shared BFCL sample sits beside the repository (../shared/bfcl); without it there is nothing to recompute.
const scoreRoot = fileURLToPath(new URL("../../../../shared/bfcl/score/", import.meta.url));
const models = ["Qwen_Qwen2.5-3B-Instruct", "meta-llama_Llama-3.2-3B-Instruct"];
const present = models.every((model) => existsSync(`${scoreRoot}${model}`));
if (!present) console.warn(`BFCL evidence test skipped: no score files under ${scoreRoot}`);

describe.skipIf(!present)("the base rates, recomputed from ../shared/bfcl/score", () => {
  const tallies = present
    ? models.map((model) => {
        let entries = 0;
        const failures: BfclScoreEntry[] = [];
        for (const category of ATTRIBUTED_CATEGORIES) {
          const lines = readFileSync(`${scoreRoot}${model}/BFCL_v3_${category}_score.json`, "utf8").trim().split("\n");
          entries += (JSON.parse(lines[0] as string) as { total_count: number }).total_count;
          failures.push(...lines.slice(1).map((line) => JSON.parse(line) as BfclScoreEntry));
        }
        return tallyBfclFailures(model, entries, failures);
      })
    : [];

  it("match the README's table", () => {
    const readme = readFileSync(new URL("./README.md", import.meta.url), "utf8");
    const rows = tableRows(readme);
    for (const row of tableRows(renderBfclShareTable(tallies, [...SIM_ERROR_TYPES, "extra_call"]))) {
      expect(rows).toContainEqual(row);
    }
  });

  it("give slm-3b its BFCL-sourced rates (to three decimals); the judgment ones are unmeasured there", () => {
    const shares = meanShares(tallies);
    for (const type of SIM_ERROR_TYPES) {
      const share = shares[type] ?? 0;
      if (simCatalogue().errorTypes[type].source === "bfcl") {
        expect(Math.abs(simProfile("slm-3b").rates[type] - share), type).toBeLessThanOrEqual(0.0005 + 1e-12);
      } else expect(share, type).toBe(0);
    }
  });
});
