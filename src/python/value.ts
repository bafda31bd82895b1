/**
 * Python values as a tagged model: what JavaScript numbers lose is kept (int vs float, tuples vs
 * lists), with Python's `==`, dict lookup, `repr()` and the JSON crossings. The BFCL decoder and the
 * bench's argument matcher (src/bench/scoring/arg-match.ts) share it.
 */

export type PyValue =
  | { readonly kind: "none" }
  | { readonly kind: "bool"; readonly value: boolean }
  | { readonly kind: "int"; readonly value: number }
  | { readonly kind: "float"; readonly value: number }
  | { readonly kind: "str"; readonly value: string }
  | { readonly kind: "list"; readonly items: readonly PyValue[] }
  | { readonly kind: "tuple"; readonly items: readonly PyValue[] }
  | { readonly kind: "dict"; readonly entries: ReadonlyArray<readonly [PyValue, PyValue]> }
  /** A value Python has but no BFCL type maps to (bytes, complex, set): kept only for its repr. */
  | { readonly kind: "opaque"; readonly type: string; readonly repr: string };

export type PyKind = PyValue["kind"];

const NONE: PyValue = { kind: "none" };
export const py = {
  none: (): PyValue => NONE,
  bool: (value: boolean): PyValue => ({ kind: "bool", value }),
  int: (value: number): PyValue => ({ kind: "int", value }),
  float: (value: number): PyValue => ({ kind: "float", value }),
  str: (value: string): PyValue => ({ kind: "str", value }),
  list: (items: readonly PyValue[]): PyValue => ({ kind: "list", items }),
  tuple: (items: readonly PyValue[]): PyValue => ({ kind: "tuple", items }),
  dict: (entries: ReadonlyArray<readonly [PyValue, PyValue]>): PyValue => ({ kind: "dict", entries }),
  opaque: (type: string, repr: string): PyValue => ({ kind: "opaque", type, repr }),
};

/** Plain JSON → PyValue. A number is an int when integral: the literal form is gone after JSON.parse. */
export function fromJson(value: unknown): PyValue {
  if (value === null || value === undefined) return NONE;
  switch (typeof value) {
    case "boolean":
      return py.bool(value);
    case "number":
      return Number.isInteger(value) ? py.int(value) : py.float(value);
    case "string":
      return py.str(value);
    case "object":
      if (Array.isArray(value)) return py.list(value.map(fromJson));
      return py.dict(Object.entries(value).map(([k, v]) => [py.str(k), fromJson(v)] as const));
    default:
      return py.opaque(typeof value, String(value));
  }
}

/** PyValue → plain JSON, as Python's json.dumps would write it (tuples as arrays, dict keys as strings). */
export function toJson(value: PyValue): unknown {
  switch (value.kind) {
    case "none":
      return null;
    case "bool":
    case "int":
    case "float":
    case "str":
      return value.value;
    case "list":
    case "tuple":
      return value.items.map(toJson);
    case "dict":
      return Object.fromEntries(value.entries.map(([k, v]) => [jsonKey(k), toJson(v)]));
    case "opaque":
      return value.repr;
  }
}

function jsonKey(key: PyValue): string {
  if (key.kind === "str") return key.value;
  if (key.kind === "none") return "null";
  if (key.kind === "bool") return key.value ? "true" : "false";
  return pyRepr(key);
}

function numericValue(v: PyValue): number | undefined {
  if (v.kind === "int" || v.kind === "float") return v.value;
  if (v.kind === "bool") return v.value ? 1 : 0;
  return undefined;
}

/** Python `==`: `1 == 1.0 == True`, list ≠ tuple, dicts by key set and values. */
export function pyEquals(a: PyValue, b: PyValue): boolean {
  const na = numericValue(a);
  if (na !== undefined) return na === numericValue(b);
  switch (a.kind) {
    case "none":
      return b.kind === "none";
    case "str":
      return b.kind === "str" && a.value === b.value;
    case "list":
    case "tuple":
      return b.kind === a.kind && sequenceEquals(a.items, b.items);
    case "dict":
      return (
        b.kind === "dict" &&
        a.entries.length === b.entries.length &&
        a.entries.every(([k, v]) => {
          const other = dictGet(b, k);
          return other !== undefined && pyEquals(v, other);
        })
      );
    case "opaque":
      return b.kind === "opaque" && a.type === b.type && a.repr === b.repr;
    default:
      return false;
  }
}

function sequenceEquals(a: readonly PyValue[], b: readonly PyValue[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!pyEquals(a[i]!, b[i]!)) return false;
  return true;
}

/** Python dict lookup (by equality, so `1` and `True` are one key). */
export function dictGet(dict: PyValue & { kind: "dict" }, key: PyValue): PyValue | undefined {
  for (const [k, v] of dict.entries) if (pyEquals(k, key)) return v;
  return undefined;
}

/** The value under a string key (what a JSON object field is). */
export function dictField(dict: PyValue & { kind: "dict" }, key: string): PyValue | undefined {
  for (const [k, v] of dict.entries) if (k.kind === "str" && k.value === key) return v;
  return undefined;
}

/** Python's repr(), for error messages and for `ast.unparse`-compatible source text. */
export function pyRepr(v: PyValue): string {
  switch (v.kind) {
    case "none":
      return "None";
    case "bool":
      return v.value ? "True" : "False";
    case "int":
      return Number.isSafeInteger(v.value) || !Number.isFinite(v.value) ? String(v.value) : BigInt(v.value).toString();
    case "float":
      return pyFloatRepr(v.value);
    case "str":
      return pyStrRepr(v.value);
    case "list":
      return `[${v.items.map(pyRepr).join(", ")}]`;
    case "tuple":
      return v.items.length === 1 ? `(${pyRepr(v.items[0]!)},)` : `(${v.items.map(pyRepr).join(", ")})`;
    case "dict":
      return `{${v.entries.map(([k, val]) => `${pyRepr(k)}: ${pyRepr(val)}`).join(", ")}}`;
    case "opaque":
      return v.repr;
  }
}

/** repr(float): shortest round-trip digits, exponent form outside 1e-4 ≤ |x| < 1e16. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mantissa, expText] = x.toExponential().split("e") as [string, string];
  const exp = Number(expText);
  const sign = mantissa.startsWith("-") ? "-" : "";
  const digits = mantissa.replace("-", "").replace(".", "");
  if (exp >= -4 && exp < 16) {
    if (exp >= digits.length - 1) return `${sign}${digits}${"0".repeat(exp - digits.length + 1)}.0`;
    if (exp >= 0) return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
    return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
  }
  const frac = digits.length > 1 ? `.${digits.slice(1)}` : "";
  const expAbs = String(Math.abs(exp)).padStart(2, "0");
  return `${sign}${digits[0]}${frac}e${exp < 0 ? "-" : "+"}${expAbs}`;
}

/** repr(str): single quotes unless the text has a single quote and no double quote. */
export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return out + quote;
}
