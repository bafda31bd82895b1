/**
 * The gold value of an expected argument: what the gold replay sends and what the simulator's oracle
 * writes. It mirrors how src/bench/scoring/arg-match.ts reads expected values (BFCL's rules):
 * - at the top, an array is a list of alternatives; the gold one is the first that is neither `""`
 *   (may be omitted) nor a `{regex}` / `{any}` matcher;
 * - an object value is a dict whose values are themselves alternatives (one level deep), so
 *   `{"title": [[{"text": …}]]}` means title = that one-element array;
 * - an array value of a parameter whose items are objects is a list of such dicts.
 */
import type { JsonSchema } from "../../mcp/types.ts";
import type { ExpectedCall } from "./types.ts";

export type GoldValue = { present: true; value: unknown } | { present: false };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isMatcher(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  return (
    keys.length === 1 &&
    ((keys[0] === "regex" && typeof value.regex === "string") || (keys[0] === "any" && value.any === true))
  );
}

/** The alternatives of one expected value: an array lists them, anything else is the only one. */
export function alternativesOf(expected: unknown): unknown[] {
  return Array.isArray(expected) ? expected : [expected];
}

/** The concrete alternatives of one expected value (no omit marker, no matchers). */
export function concreteAlternatives(expected: unknown): unknown[] {
  return alternativesOf(expected).filter((alternative) => alternative !== "" && !isMatcher(alternative));
}

/** A concrete alternative → the value it stands for (dicts and lists of dicts hold alternatives). */
export function goldOfAlternative(alternative: unknown, schema?: JsonSchema): unknown {
  if (isPlainObject(alternative)) return goldDict(alternative);
  const items = schema?.items as JsonSchema | undefined;
  if (Array.isArray(alternative) && items?.type === "object") {
    return alternative.map((element) => (isPlainObject(element) ? goldDict(element) : element));
  }
  return alternative;
}

function goldDict(dict: Record<string, unknown>): Record<string, unknown> {
  const gold: Record<string, unknown> = {};
  for (const [key, expected] of Object.entries(dict)) {
    const [first] = concreteAlternatives(expected);
    if (concreteAlternatives(expected).length > 0) gold[key] = first;
  }
  return gold;
}

export function goldValue(expected: unknown, schema?: JsonSchema): GoldValue {
  const alternatives = concreteAlternatives(expected);
  return alternatives.length === 0
    ? { present: false }
    : { present: true, value: goldOfAlternative(alternatives[0], schema) };
}

/** May this parameter be left out (is `""` among its alternatives)? */
export function mayOmit(expected: unknown): boolean {
  return Array.isArray(expected) && expected.includes("");
}

/**
 * The gold call's arguments: each parameter's gold value; parameters without one are omitted.
 * `inputSchema` (the tool's) tells lists of dicts from plain lists.
 */
export function goldArgs(call: ExpectedCall, inputSchema?: JsonSchema): Record<string, unknown> {
  const properties = (inputSchema?.properties ?? {}) as Record<string, JsonSchema>;
  const args: Record<string, unknown> = {};
  for (const [param, expected] of Object.entries(call.args)) {
    const gold = goldValue(expected, properties[param]);
    if (gold.present) args[param] = gold.value;
  }
  return args;
}
