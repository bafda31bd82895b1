/**
 * The gold value of an expected argument: what the gold replay sends and what the simulator's oracle writes.
 * An expected value is one alternative, or an array of alternatives (src/bench/scoring/arg-match.ts);
 * the gold one is the first that is neither `""` (may be omitted) nor a `{regex}` / `{any}` matcher.
 */
import type { ExpectedCall } from "./types.ts";

export type GoldValue = { present: true; value: unknown } | { present: false };

function isMatcher(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && (keys[0] === "regex" || (keys[0] === "any" && (value as { any: unknown }).any === true));
}

/** The concrete alternatives of one expected value (no omit marker, no matchers). */
export function concreteAlternatives(expected: unknown): unknown[] {
  const alternatives = Array.isArray(expected) ? expected : [expected];
  return alternatives.filter((alternative) => alternative !== "" && !isMatcher(alternative));
}

export function goldValue(expected: unknown): GoldValue {
  const alternatives = concreteAlternatives(expected);
  return alternatives.length === 0 ? { present: false } : { present: true, value: alternatives[0] };
}

/** May this parameter be left out (is `""` among its alternatives)? */
export function mayOmit(expected: unknown): boolean {
  return Array.isArray(expected) && expected.includes("");
}

/** The gold call's arguments: each parameter's gold value; parameters without one are omitted. */
export function goldArgs(call: ExpectedCall): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [param, expected] of Object.entries(call.args)) {
    const gold = goldValue(expected);
    if (gold.present) args[param] = gold.value;
  }
  return args;
}
