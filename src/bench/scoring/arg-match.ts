/**
 * Argument matching — ONE module shared by the BFCL scorer (src/bfcl) and the bench's own scorer.
 *
 * It implements BFCL's AST matching rules for the arguments of one call: required / unexpected /
 * optional parameters, the type check (with BFCL's "variable" escape hatch and one-level nested
 * check for arrays), then the value check against a list of acceptable values (strings normalised,
 * lists element-wise, dicts key by key, everything else by Python equality).
 *
 * Values are `PyValue`s (src/python/value.ts), a small tagged model that keeps what JavaScript numbers
 * lose: Python's int vs float distinction (and tuples vs lists). Two modes:
 * - `"bfcl"`: BFCL's exact strictness — `type(value) == expected` (a bool is not an int, `5` is not
 *   a float except that an int is accepted where a float is declared, a tuple is read as a list only
 *   for `tuple` parameters).
 * - `"json"`: for plain JSON tool-call arguments (the bench). After `JSON.parse` a number's literal
 *   form (`5` vs `5.0`) is not knowable, so `integer` accepts any integral number, `number`/`float`
 *   any number, and int/float compare as one kind; everything else is as in `"bfcl"` mode.
 *
 * Acceptable values (BFCL's form, also the project dataset's): a list of alternatives per parameter;
 * `""` among them means "may be omitted". Two extensions for free text, recognised in both modes
 * (they cannot collide with BFCL data, whose dict answers always hold lists): `{"regex": "…"}`
 * (unanchored, case-insensitive, see src/bench/dataset/regex.ts) and `{"any": true}` (any value of the right type).
 */

import { InputError } from "../../errors.ts";
import { dictField, fromJson, type PyKind, type PyValue, py, pyEquals, pyRepr, pyStrRepr } from "../../python/value.ts";
import { datasetRegex } from "../dataset/regex.ts";

// ─── string normalisation ───────────────────────────────────────────────────────────────────────

const IGNORED_CHARS = /[ ,./\-_*^]/g;

/** BFCL's standardize_string: drop spaces and `, . / - _ * ^`, lowercase, `'` → `"`. */
export function normalizeString(s: string): string {
  const lowered = s.replace(IGNORED_CHARS, "").toLowerCase();
  return lowered.includes("'") ? lowered.replaceAll("'", '"') : lowered;
}

// ─── schemas and verdicts ───────────────────────────────────────────────────────────────────────

export type MatchMode = "bfcl" | "json";

/** A parameter's declared type: BFCL names (dict, integer, float, tuple, any…) or JSON Schema names. */
export interface ParamSchema {
  readonly type?: string | readonly string[];
  readonly items?: ParamSchema;
}

/** A function's parameters: BFCL's `parameters` or an MCP tool's `inputSchema` (both fit). */
export interface CallSchema {
  readonly properties?: Readonly<Record<string, ParamSchema>>;
  readonly required?: readonly string[];
}

export type ValueErrorType =
  | "type_error:simple"
  | "type_error:nested"
  | "value_error:string"
  | "value_error:list/tuple"
  | "value_error:dict_key"
  | "value_error:dict_value"
  | "value_error:list_dict_count"
  | "value_error:others"
  | "dict_checker:unclear"
  | "list_dict_checker:unclear";

export type ArgErrorType = ValueErrorType | "missing_required" | "unexpected_param" | "missing_optional";

export type ArgVerdict =
  | { readonly valid: true }
  | { readonly valid: false; readonly errorType: ArgErrorType; readonly error: string };

const VALID: ArgVerdict = { valid: true };

/** A failing verdict; the message may be given as a function. */
function invalid(errorType: ArgErrorType, describe: string | (() => string)): ArgVerdict {
  return { valid: false, errorType, error: typeof describe === "string" ? describe : describe() };
}

/** The kind a declared type asks for; `undefined` = no type check. */
type Expected = "str" | "int" | "float" | "bool" | "list" | "dict" | "none" | undefined;

const TYPE_NAMES: Readonly<Record<string, Expected>> = {
  string: "str",
  str: "str",
  integer: "int",
  int: "int",
  float: "float",
  number: "float",
  boolean: "bool",
  bool: "bool",
  array: "list",
  list: "list",
  tuple: "list",
  dict: "dict",
  object: "dict",
  null: "none",
};

function expectedOf(typeName: string | undefined, mode: MatchMode): Expected {
  if (typeName === undefined) return undefined;
  // BFCL maps `any` to str; a JSON schema without a usable type means "anything".
  if (typeName === "any") return mode === "bfcl" ? "str" : undefined;
  return TYPE_NAMES[typeName];
}

/** `type(value) == expected`, widened in json mode (numbers are one kind; tuples read as lists). */
function hasType(v: PyValue, expected: Expected, mode: MatchMode): boolean {
  if (mode === "json") {
    if (expected === "int") return v.kind === "int" || (v.kind === "float" && Number.isInteger(v.value));
    if (expected === "float") return v.kind === "int" || v.kind === "float";
    if (expected === "list") return v.kind === "list" || v.kind === "tuple";
  }
  return v.kind === expected;
}

function jsonKind(v: PyValue): PyKind {
  if (v.kind === "int") return "float";
  if (v.kind === "tuple") return "list";
  return v.kind;
}

/** `type(a) == type(b)`, widened in json mode. */
function sameType(a: PyValue, b: PyValue, mode: MatchMode): boolean {
  return mode === "json" ? jsonKind(a) === jsonKind(b) : a.kind === b.kind;
}

function typeLabel(typeName: string | undefined): string {
  return typeName ?? "any";
}

const PY_TYPE_NAMES: Readonly<Record<PyKind, string>> = {
  none: "NoneType",
  bool: "bool",
  int: "int",
  float: "float",
  str: "str",
  list: "list",
  tuple: "tuple",
  dict: "dict",
  opaque: "object",
};

function pyTypeName(v: PyValue): string {
  return v.kind === "opaque" ? v.type : PY_TYPE_NAMES[v.kind];
}

/** Picks the declared type name; with a union (JSON Schema), the member the value satisfies. */
function declaredType(schema: ParamSchema | undefined, value: PyValue, mode: MatchMode): string | undefined {
  const type = schema?.type;
  if (type === undefined || typeof type === "string") return type;
  return type.find((t) => hasType(value, expectedOf(t, mode), mode)) ?? type[0];
}

// ─── acceptable values ──────────────────────────────────────────────────────────────────────────

const OMIT = "";

function isOmitMarker(v: PyValue): boolean {
  return v.kind === "str" && v.value === OMIT;
}

type Extension = { readonly kind: "any" } | { readonly kind: "regex"; readonly re: RegExp };

/** Thrown for a malformed acceptable value (a bad regex): a dataset bug, not a model failure. */
export class ArgMatchSpecError extends InputError {
  constructor(message: string, options: { cause?: unknown; context?: Record<string, unknown> } = {}) {
    super("ARG_MATCH_BAD_SPEC", message, options);
  }
}

function extensionOf(v: PyValue): Extension | null {
  if (v.kind !== "dict" || v.entries.length !== 1) return null;
  const [key, val] = v.entries[0]!;
  if (key.kind === "str" && key.value === "any" && val.kind === "bool" && val.value) return { kind: "any" };
  if (key.kind === "str" && key.value === "regex" && val.kind === "str") {
    try {
      return { kind: "regex", re: datasetRegex(val.value) };
    } catch (cause) {
      throw new ArgMatchSpecError(`invalid regex in acceptable value: ${val.value}`, { cause });
    }
  }
  return null;
}

function matchesExtension(ext: Extension, value: PyValue): boolean {
  return ext.kind === "any" || (value.kind === "str" && ext.re.test(value.value));
}

/** BFCL's get_possible_answer_type: the first alternative that is not the omit marker. */
function firstAnswer(acceptable: readonly PyValue[]): PyValue | undefined {
  return acceptable.find((a) => !isOmitMarker(a) && extensionOf(a) === null);
}

/** Alternatives inside a dict answer: a list is alternatives, anything else one alternative (json). */
function alternatives(v: PyValue): readonly PyValue[] {
  return v.kind === "list" ? v.items : [v];
}

// ─── the per-value check ────────────────────────────────────────────────────────────────────────

interface TypeVerdict {
  readonly verdict: ArgVerdict;
  /** BFCL's is_variable: the answers are of another type than declared; compare values as-is. */
  readonly isVariable: boolean;
}

function checkType(
  param: string,
  value: PyValue,
  acceptable: readonly PyValue[],
  typeName: string | undefined,
  expected: Expected,
  nested: Expected | null,
  mode: MatchMode,
): TypeVerdict {
  const answer = firstAnswer(acceptable);
  const isVariable = answer !== undefined && expected !== undefined && !hasType(answer, expected, mode);
  let nestedError: (() => string) | undefined;
  if (expected === undefined || hasType(value, expected, mode)) {
    if (nested === null || expected === undefined) return { verdict: VALID, isVariable };
    const items = (value as PyValue & { items: readonly PyValue[] }).items;
    // Each alternative that is a list is tried; a non-list alternative (the omit marker) passes.
    for (const alt of acceptable) {
      if (alt.kind !== "list") return { verdict: VALID, isVariable };
      const itemsOk = items.every(
        (item) => checkType(param, item, alt.items, undefined, nested, null, mode).verdict.valid,
      );
      if (itemsOk) return { verdict: VALID, isVariable };
    }
    nestedError = () =>
      `Nested type checking failed for parameter ${pyStrRepr(param)}. Expected outer type ${typeLabel(typeName)} with inner type ${nested}. Parameter value: ${pyRepr(value)}.`;
  }
  // BFCL's escape hatch: a value of the answers' type. The last clause only matters in json mode,
  // where a number can share the answer's (widened) type without having the declared one.
  if (answer !== undefined && sameType(value, answer, mode) && (nestedError || isVariable)) {
    return {
      verdict: nestedError === undefined ? VALID : invalid("type_error:nested", nestedError),
      isVariable: true,
    };
  }
  const simple = () =>
    `Incorrect type for parameter ${pyStrRepr(param)}. Expected type ${typeLabel(typeName ?? expected)}, got ${pyTypeName(value)}. Parameter value: ${pyRepr(value)}.`;
  const describe = nestedError ? () => `${nestedError()} ${simple()}` : simple;
  return { verdict: invalid("type_error:simple", describe), isVariable };
}

function normalizedValue(v: PyValue): PyValue {
  return v.kind === "str" ? py.str(normalizeString(v.value)) : v;
}

function checkString(param: string, value: string, acceptable: readonly PyValue[]): ArgVerdict {
  const norm = normalizeString(value);
  for (const a of acceptable) {
    const n = normalizedValue(a);
    if (n.kind === "str" && n.value === norm) return VALID;
  }
  return invalid(
    "value_error:string",
    () =>
      `Invalid value for parameter ${pyStrRepr(param)}: ${pyStrRepr(value)}. Expected one of ${pyRepr(py.list(acceptable))}. Case insensitive.`,
  );
}

/** An alternative read as a list the way BFCL's list_checker iterates it (a string by characters). */
function alternativeAsList(a: PyValue): readonly PyValue[] | undefined {
  if (a.kind === "list" || a.kind === "tuple") return a.items;
  if (a.kind === "str") return Array.from(a.value, (ch) => py.str(ch));
  return undefined;
}

function checkList(param: string, value: PyValue & { items: readonly PyValue[] }, acceptable: readonly PyValue[]) {
  const model = value.items.map(normalizedValue);
  for (const a of acceptable) {
    const items = alternativeAsList(a);
    if (items?.length === model.length && items.every((item, i) => pyEquals(model[i]!, normalizedValue(item)))) {
      return VALID;
    }
  }
  return invalid(
    "value_error:list/tuple",
    () =>
      `Invalid value for parameter ${pyStrRepr(param)}: ${pyRepr(value)}. Expected one of ${pyRepr(py.list(acceptable))}.`,
  );
}

/**
 * One dict against one expected dict (whose values are lists of alternatives). As in BFCL, the first
 * bad key or value stops the key scan, but a missing expected key is still looked for and wins.
 */
function checkDictAgainst(model: PyValue, answer: PyValue): ArgVerdict {
  if (model.kind !== "dict" || answer.kind !== "dict") {
    return invalid("value_error:dict_value", () => `Expected a dict, got ${pyRepr(model)}.`);
  }
  let verdict = VALID;
  for (const [key, val] of model.entries) {
    const expected = key.kind === "str" ? dictField(answer, key.value) : undefined;
    if (expected === undefined) {
      verdict = invalid("value_error:dict_key", () => `Unexpected dict key parameter: ${pyRepr(key)}.`);
      break;
    }
    const alts = alternatives(expected).map(normalizedValue);
    const norm = normalizedValue(val);
    if (!alts.some((a) => pyEquals(norm, a) || matchesAnyExtension(a, val))) {
      verdict = invalid(
        "value_error:dict_value",
        () => `Invalid value for parameter ${pyRepr(key)}: ${pyRepr(val)}. Expected one of ${pyRepr(py.list(alts))}.`,
      );
      break;
    }
  }
  for (const [key, expected] of answer.entries) {
    if (key.kind !== "str" || dictField(model, key.value) !== undefined) continue;
    if (!alternatives(expected).some(isOmitMarker)) {
      return invalid("value_error:dict_key", () => `Missing dict key parameter: ${pyRepr(key)}.`);
    }
  }
  return verdict;
}

function matchesAnyExtension(alt: PyValue, value: PyValue): boolean {
  const ext = extensionOf(alt);
  return ext !== null && matchesExtension(ext, value);
}

function checkDict(value: PyValue, acceptable: readonly PyValue[]): ArgVerdict {
  let last: ArgVerdict = invalid("dict_checker:unclear", "No dict among the acceptable values.");
  for (const answer of acceptable) {
    if (isOmitMarker(answer)) continue;
    last = checkDictAgainst(value, answer);
    if (last.valid) return VALID;
  }
  return last;
}

function checkListOfDicts(value: PyValue & { items: readonly PyValue[] }, acceptable: readonly PyValue[]): ArgVerdict {
  let last: ArgVerdict = invalid("list_dict_checker:unclear", "No list of dicts among the acceptable values.");
  for (const answer of acceptable) {
    const dicts = alternativeAsList(answer) ?? [];
    if (dicts.length !== value.items.length) {
      last = invalid("value_error:list_dict_count", "Wrong number of dictionaries in the list.");
      continue;
    }
    let allOk = true;
    for (let i = 0; i < dicts.length && allOk; i++) {
      last = checkDictAgainst(value.items[i]!, dicts[i]!);
      allOk = last.valid;
    }
    if (allOk) return VALID;
  }
  return last;
}

/**
 * Checks one argument value against its acceptable values and declared type (BFCL's per-parameter
 * rules 4 and 5). `acceptable` may hold `""` (omit marker) and the `{"regex"}` / `{"any"}` forms.
 */
export function checkArgValue(
  param: string,
  rawValue: PyValue,
  acceptable: readonly PyValue[],
  schema: ParamSchema | undefined,
  mode: MatchMode,
): ArgVerdict {
  const typeName = declaredType(schema, rawValue, mode);
  let value = rawValue;
  // BFCL: tuples become lists for tuple parameters; Python's int → float promotion for floats.
  if (typeName === "tuple" && value.kind === "tuple") value = py.list(value.items);
  if (mode === "bfcl" && typeName === "float" && value.kind === "int") value = py.float(value.value);
  const expected = expectedOf(typeName, mode);
  const isArray = typeName === "array" || typeName === "tuple";
  const itemType = isArray && schema?.items ? expectedOf(declaredType(schema.items, value, mode), mode) : undefined;
  const nested = isArray && schema?.items ? itemType : null;

  const typed = checkType(param, value, acceptable, typeName, expected, nested ?? null, mode);
  if (!typed.verdict.valid) return typed.verdict;
  if (acceptable.some((a) => matchesAnyExtension(a, value))) return VALID;

  if (!typed.isVariable) {
    const shape = expected ?? jsonKind(value);
    if (shape === "dict") return checkDict(value, acceptable);
    if (shape === "list" && (value.kind === "list" || value.kind === "tuple")) {
      return nested === "dict" ? checkListOfDicts(value, acceptable) : checkList(param, value, acceptable);
    }
    if (shape === "str" && value.kind === "str") return checkString(param, value.value, acceptable);
  }
  if (acceptable.some((a) => pyEquals(value, a))) return VALID;
  return invalid(
    "value_error:others",
    () =>
      `Invalid value for parameter ${pyStrRepr(param)}: ${pyRepr(value)}. Expected one of ${pyRepr(py.list(acceptable))}.`,
  );
}

// ─── the per-call check ─────────────────────────────────────────────────────────────────────────

/** Expected arguments: parameter → acceptable values (`""` among them = may be omitted). */
export type ExpectedArgs = ReadonlyMap<string, readonly PyValue[]>;

export interface CallArgsVerdict {
  readonly valid: boolean;
  /** The first failure in BFCL's order: missing required, then each given argument, then missing optional. */
  readonly failure?: {
    readonly param: string;
    readonly errorType: ArgErrorType;
    /** The failing verdict; its `error` message is built when read. */
    readonly verdict: ArgVerdict & { valid: false };
  };
  /** One verdict per parameter given or expected, for per-argument accuracy. */
  readonly params: ReadonlyMap<string, ArgVerdict>;
}

/**
 * Checks a call's arguments (BFCL's simple_function_checker without the name check). Without a
 * `schema` (json mode, tool unknown), no parameter is required and none is type-checked.
 */
export function checkCallArgs(
  args: ReadonlyMap<string, PyValue>,
  expected: ExpectedArgs,
  schema: CallSchema | undefined,
  mode: MatchMode,
): CallArgsVerdict {
  const verdicts = new CallVerdicts();
  const properties = schema?.properties;
  // forEach rather than for…of over entries: no [key, value] pair allocated per parameter (hot path).
  schema?.required?.forEach((param) => {
    if (args.has(param)) return;
    verdicts.record(
      param,
      invalid("missing_required", () => `Missing required parameter: ${pyStrRepr(param)}.`),
    );
  });
  args.forEach((value, param) => {
    const declared = properties ? Object.hasOwn(properties, param) : true;
    const acceptable = expected.get(param);
    if (!declared || acceptable === undefined) {
      verdicts.record(
        param,
        invalid("unexpected_param", () => `Unexpected parameter: ${pyStrRepr(param)}.`),
      );
      return;
    }
    verdicts.record(param, checkArgValue(param, value, acceptable, properties?.[param], mode));
  });
  expected.forEach((acceptable, param) => {
    if (args.has(param) || verdicts.params.has(param) || acceptable.some(isOmitMarker)) return;
    const message = () => `Optional parameter ${pyStrRepr(param)} not provided and not marked as optional.`;
    verdicts.record(param, invalid("missing_optional", message));
  });
  return verdicts.result();
}

/** Collects per-parameter verdicts and remembers the first failure (BFCL reports that one). */
class CallVerdicts {
  readonly params = new Map<string, ArgVerdict>();
  private failure: CallArgsVerdict["failure"];

  record(param: string, verdict: ArgVerdict): void {
    this.params.set(param, verdict);
    if (!this.failure && !verdict.valid) this.failure = { param, errorType: verdict.errorType, verdict };
  }

  result(): CallArgsVerdict {
    return this.failure
      ? { valid: false, failure: this.failure, params: this.params }
      : { valid: true, params: this.params };
  }
}

/**
 * The bench's entry point: plain JSON arguments against the project dataset's expected `args`
 * (per parameter: a value, or a list of acceptable values; `""` = may be omitted; `{"regex"}`,
 * `{"any": true}`), with the tool's JSON Schema `inputSchema` when known. Json mode.
 */
export function matchJsonArgs(
  args: Readonly<Record<string, unknown>>,
  expected: Readonly<Record<string, unknown>>,
  inputSchema?: unknown,
): CallArgsVerdict {
  const given = new Map(Object.entries(args).map(([k, v]) => [k, fromJson(v)] as const));
  return checkCallArgs(given, expectedArgsFromJson(expected), callSchemaOf(inputSchema), "json");
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function paramSchemaOf(x: unknown): ParamSchema {
  if (!isRecord(x)) return {};
  const type = typeof x.type === "string" || Array.isArray(x.type) ? (x.type as string | string[]) : undefined;
  return { type, items: x.items === undefined ? undefined : paramSchemaOf(x.items) };
}

/** A JSON Schema object (an MCP tool's `inputSchema`, loosely typed) → CallSchema; undefined if unusable. */
export function callSchemaOf(inputSchema: unknown): CallSchema | undefined {
  if (!isRecord(inputSchema)) return undefined;
  const properties = isRecord(inputSchema.properties)
    ? Object.fromEntries(Object.entries(inputSchema.properties).map(([k, v]) => [k, paramSchemaOf(v)]))
    : undefined;
  const required = Array.isArray(inputSchema.required)
    ? inputSchema.required.filter((r): r is string => typeof r === "string")
    : undefined;
  return { properties, required };
}

/** Dataset `args` → ExpectedArgs: an array is a list of alternatives, anything else one alternative. */
export function expectedArgsFromJson(expected: Readonly<Record<string, unknown>>): ExpectedArgs {
  return new Map(
    Object.entries(expected).map(([k, v]) => [k, Array.isArray(v) ? v.map(fromJson) : [fromJson(v)]] as const),
  );
}
