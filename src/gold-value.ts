/**
 * The gold value of an expected argument: ONE reading shared by the gold replay (`dataset check`), the
 * simulator's oracle and the scorer's tests, so that what the check accepts is what the oracle sends.
 * It mirrors how src/bench/scoring/arg-match.ts reads expected values (BFCL's rules):
 * - at the top, an array is a list of alternatives; the gold one is the first that is neither `""`
 *   (may be omitted) nor a `{regex}` / `{any}` matcher;
 * - an object value is a dict whose values are themselves alternatives (one level deep), so
 *   `{"title": [[{"text": …}]]}` means title = that one-element array;
 * - an array value of a parameter whose items are objects is a list of such dicts. Without the
 *   parameter's schema (the simulator reads no schema), an array whose elements are all dicts is one.
 */

/** A JSON Schema, as far as the gold reading looks into it. */
type JsonSchema = { [key: string]: unknown };

/** One expected call of a dataset item: the tool and, per parameter, its acceptable values. */
export interface GoldSource {
  tool: string;
  args: Record<string, unknown>;
}

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
  if (Array.isArray(alternative) && holdsDicts(alternative, schema)) {
    return alternative.map((element) => (isPlainObject(element) ? goldDict(element) : element));
  }
  return alternative;
}

/** The parameter is a list of dicts: its schema says so, or (no item type known) every element is one. */
function holdsDicts(list: unknown[], schema: JsonSchema | undefined): boolean {
  const items = schema?.items as JsonSchema | undefined;
  if (items?.type !== undefined) return items.type === "object";
  return list.length > 0 && list.every((element) => isPlainObject(element) && !isMatcher(element));
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
export function goldArgs(call: GoldSource, inputSchema?: JsonSchema): Record<string, unknown> {
  const properties = (inputSchema?.properties ?? {}) as Record<string, JsonSchema>;
  const args: Record<string, unknown> = {};
  for (const [param, expected] of Object.entries(call.args)) {
    const gold = goldValue(expected, properties[param]);
    if (gold.present) args[param] = gold.value;
  }
  return args;
}

/**
 * A concrete value → the dataset's form of it, the inverse of `goldValue`: an array is wrapped (one
 * alternative), and so is an array inside a dict or inside a list of dicts. `dataset new` writes its
 * drafts through it, so a draft whose TODOs are filled passes `dataset check`.
 */
export function expectedForm(value: unknown, schema?: JsonSchema): unknown {
  if (isPlainObject(value)) return dictForm(value);
  if (!Array.isArray(value)) return value;
  return [
    holdsDicts(value, schema) ? value.map((element) => (isPlainObject(element) ? dictForm(element) : element)) : value,
  ];
}

function dictForm(dict: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(dict).map(([key, inner]) => [key, Array.isArray(inner) ? [inner] : inner]));
}
