import { describe, expect, it } from "vitest";
import { simCatalogue, simProfile } from "./catalog.ts";
import { CALL_ERROR_TYPES, REQUEST_ERROR_TYPES } from "./error-types.ts";
import { effectiveRates, type SimFeatures } from "./rates.ts";

const slm3b = simProfile("slm-3b");
const planning: SimFeatures = {
  protocol: "planner",
  turn: "calls",
  hasItem: true,
  needsTool: true,
  toolsShown: 8,
  skillRules: false,
  errorToFix: false,
  calls: [{ args: 4, scalarArgs: 4, ownerRepo: true, otherToolShown: true }],
  turnIndex: 1,
  historyChars: 0,
};
const callRates = (features: Partial<SimFeatures>) => effectiveRates(slm3b, { ...planning, ...features }).calls[0]!;
const requestRates = (features: Partial<SimFeatures>) => effectiveRates(slm3b, { ...planning, ...features }).request;

describe("effective rates", () => {
  it("rise with a conversation's turn index and its history's length, as the catalogue states, up to its cap", () => {
    const { perTurn, perThousandHistoryChars, maxFactor } = simCatalogue().conversation;
    const first = callRates({});
    const third = callRates({ turnIndex: 3 });
    const thirdLong = callRates({ turnIndex: 3, historyChars: 2000 });
    const far = callRates({ turnIndex: 60, historyChars: 100_000 });
    for (const type of CALL_ERROR_TYPES) {
      if (first[type] === 0) continue;
      expect(third[type] / first[type], type).toBeCloseTo(1 + 2 * perTurn, 9);
      expect(thirdLong[type] / first[type], type).toBeCloseTo(1 + 2 * perTurn + 2 * perThousandHistoryChars, 9);
    }
    expect(perTurn).toBeGreaterThan(0);
    expect(perThousandHistoryChars).toBeGreaterThan(0);
    const sum = (rates: Record<string, number>) => Object.values(rates).reduce((total, value) => total + value, 0);
    expect(sum(far)).toBeLessThanOrEqual(Math.min(simCatalogue().maxLevelTotal, sum(first) * maxFactor) + 1e-12);
  });

  it("are the profile's base rates at the reference number of tools, with no skill rules and nothing to fix", () => {
    const reference = callRates({ toolsShown: simCatalogue().referenceTools });
    for (const type of CALL_ERROR_TYPES) expect(reference[type], type).toBeCloseTo(slm3b.rates[type], 12);
  });

  it("rise with the number of tools shown", () => {
    const few = callRates({ toolsShown: 3 });
    const some = callRates({ toolsShown: 8 });
    const many = callRates({ toolsShown: 40 });
    for (const type of CALL_ERROR_TYPES) {
      expect(some[type], type).toBeGreaterThan(few[type]);
      expect(many[type], type).toBeGreaterThan(some[type]);
    }
    expect(requestRates({ toolsShown: 40 }).malformed_syntax).toBeGreaterThan(
      requestRates({ toolsShown: 3 }).malformed_syntax,
    );
  });

  it("fall when the prompt carries the item's skill rules or an error to fix", () => {
    const plain = callRates({});
    const skilled = callRates({ skillRules: true });
    const fixing = callRates({ errorToFix: true });
    for (const type of CALL_ERROR_TYPES) {
      expect(skilled[type], type).toBeLessThan(plain[type]);
      expect(fixing[type], type).toBeLessThan(plain[type]);
    }
    expect(skilled.merged_owner_repo).toBeCloseTo(plain.merged_owner_repo * 0.2, 12);
  });

  it("are zero where the mistake cannot happen", () => {
    expect(callRates({ calls: [{ args: 2, scalarArgs: 2, ownerRepo: false, otherToolShown: false }] })).toMatchObject({
      merged_owner_repo: 0,
      wrong_tool: 0,
    });
    expect(callRates({ calls: [{ args: 0, scalarArgs: 0, ownerRepo: false, otherToolShown: true }] })).toMatchObject({
      missing_required_param: 0,
      wrong_param_name: 0,
      wrong_value: 0,
      positional_args: 0,
    });
    expect(callRates({ protocol: "native" }).positional_args).toBe(0);
    expect(requestRates({}).tool_call_on_direct).toBe(0);
    expect(requestRates({ turn: "final", needsTool: false, calls: [] })).toMatchObject({
      direct_answer_when_tool_needed: 0,
      duplicate_steps: 0,
    });
    expect(requestRates({ turn: "final", needsTool: false, calls: [] }).tool_call_on_direct).toBeGreaterThan(0);
    expect(
      requestRates({ protocol: "solver", turn: "final", needsTool: false, toolsShown: 0, calls: [] })
        .tool_call_on_direct,
    ).toBe(0);
    const unknown = effectiveRates(slm3b, { ...planning, hasItem: false });
    expect([...Object.values(unknown.request), ...Object.values(unknown.calls[0]!)].every((rate) => rate === 0)).toBe(
      true,
    );
  });

  it("sum to at most maxLevelTotal within a level", () => {
    const chaos = effectiveRates(simProfile("chaos"), { ...planning, toolsShown: 200 });
    const total = (rates: Record<string, number>) => Object.values(rates).reduce((sum, rate) => sum + rate, 0);
    expect(total(chaos.calls[0]!)).toBeCloseTo(simCatalogue().maxLevelTotal, 12);
    expect(total(chaos.request)).toBeLessThanOrEqual(simCatalogue().maxLevelTotal + 1e-12);
    expect(REQUEST_ERROR_TYPES.every((type) => chaos.request[type] <= 1)).toBe(true);
  });

  it("are all zero for the oracle", () => {
    const rates = effectiveRates(simProfile("oracle"), { ...planning, toolsShown: 200 });
    expect([...Object.values(rates.request), ...Object.values(rates.calls[0]!)].every((rate) => rate === 0)).toBe(true);
  });
});
