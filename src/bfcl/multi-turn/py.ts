/**
 * Mutable Python values for the multi-turn environments. BFCL's environments are Python: their
 * results are `json.dumps(dict)` or `str(value)` of Python objects, and their state is compared with
 * Python's `==`. What JavaScript loses is kept: int vs float (`5` vs `5.0` prints differently), dict
 * insertion order with int keys (a JS object would move them first), tuples, sets, and objects with
 * their own `__eq__`/`__repr__` (the file system's File and Directory).
 *
 * ints are JS numbers, floats are `PyFloat`, dicts are `PyDict` (a Map keyed by string or int).
 */

import { type PyValue, pyFloatRepr, pyStrRepr } from "../../python/value.ts";

export class PyFloat {
  constructor(readonly value: number) {}
}

export class PyTuple {
  constructor(readonly items: V[]) {}
}

export class PySet {
  constructor(readonly items: Set<DictKey> = new Set()) {}
}

/** A value only printed (an mpmath `mpf`, a `Decimal`): never JSON-serializable, as in Python. */
export class PyOpaque {
  constructor(
    readonly repr: string,
    readonly number: number,
  ) {}
}

/** A Python object with its own `__eq__` and `__repr__` (File, Directory). */
export interface PyObject {
  readonly pyClass: string;
  pyEq(other: PyObject): boolean;
  pyRepr(): string;
  /** Attributes the parity test compares, in a stable form (see canonical). */
  canonical(): unknown;
}

export type DictKey = string | number | boolean | null;

export class PyDict extends Map<DictKey, V> {}

export type V = null | boolean | number | string | PyFloat | PyTuple | PySet | PyOpaque | PyDict | V[] | PyObject;

/** A Python exception raised inside an environment method: the executor prints `str(e)`. */
export class PyException extends Error {
  constructor(
    readonly pyType: string,
    message: string,
  ) {
    super(message);
  }
}

export const f = (x: number): PyFloat => new PyFloat(x);

export function dict(entries: Iterable<readonly [DictKey, V]> = []): PyDict {
  return new PyDict(entries as Iterable<[DictKey, V]>);
}

/** A dict from a record literal (string keys in written order). */
export function rec(record: Record<string, V>): PyDict {
  return new PyDict(Object.entries(record));
}

export function isPyObject(v: V): v is PyObject {
  return typeof v === "object" && v !== null && "pyClass" in v;
}

// ─── numbers ────────────────────────────────────────────────────────────────────────────────────

export function isNumber(v: V): v is number | boolean | PyFloat | PyOpaque {
  return typeof v === "number" || typeof v === "boolean" || v instanceof PyFloat || v instanceof PyOpaque;
}

export function num(v: V): number {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v instanceof PyFloat || v instanceof PyOpaque) return v instanceof PyFloat ? v.value : v.number;
  throw new PyException("TypeError", `'${typeName(v)}' object cannot be interpreted as a number`);
}

function isFloatLike(v: V): boolean {
  return v instanceof PyFloat || v instanceof PyOpaque;
}

function unsupported(op: string, a: V, b: V): PyException {
  return new PyException("TypeError", `unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
}

function arith(op: string, a: V, b: V, fn: (x: number, y: number) => number): V {
  if (!isNumber(a) || !isNumber(b)) throw unsupported(op, a, b);
  const value = fn(num(a), num(b));
  return isFloatLike(a) || isFloatLike(b) ? f(value) : value;
}

export function add(a: V, b: V): V {
  if (typeof a === "string" && typeof b === "string") return a + b;
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  if (typeof a === "string" || typeof b === "string") {
    if (typeof a === "string")
      throw new PyException("TypeError", `can only concatenate str (not "${typeName(b)}") to str`);
  }
  return arith("+", a, b, (x, y) => x + y);
}
export const sub = (a: V, b: V): V => arith("-", a, b, (x, y) => x - y);
export function mul(a: V, b: V): V {
  if (typeof a === "string" && typeof b === "number") return a.repeat(Math.max(0, b));
  return arith("*", a, b, (x, y) => x * y);
}
/** `/`: always a float; dividing by zero raises ZeroDivisionError. */
export function div(a: V, b: V): V {
  if (!isNumber(a) || !isNumber(b)) throw unsupported("/", a, b);
  if (num(b) === 0) throw new PyException("ZeroDivisionError", "division by zero");
  return f(num(a) / num(b));
}
export function pow(a: V, b: V): V {
  if (!isNumber(a) || !isNumber(b)) throw unsupported("** or pow()", a, b);
  const [x, y] = [num(a), num(b)];
  if (!isFloatLike(a) && !isFloatLike(b) && y >= 0) return x ** y;
  if (x === 0 && y < 0) throw new PyException("ZeroDivisionError", "0.0 cannot be raised to a negative power");
  return f(x ** y);
}
/** Python `float(x)`. */
export function toFloat(v: V): PyFloat {
  if (typeof v === "string") {
    const t = v.trim();
    const n = Number(t.replace(/_/g, ""));
    if (t === "" || Number.isNaN(n))
      throw new PyException("ValueError", `could not convert string to float: ${pyStrRepr(v)}`);
    return f(n);
  }
  return f(num(v));
}
/** Python `int(x)` for numbers and digit strings. */
export function toInt(v: V): number {
  if (typeof v === "string") {
    if (!/^\s*[+-]?\d+\s*$/.test(v))
      throw new PyException("ValueError", `invalid literal for int() with base 10: ${pyStrRepr(v)}`);
    return Number.parseInt(v, 10);
  }
  return Math.trunc(num(v));
}

export function lt(a: V, b: V): boolean {
  if (typeof a === "string" && typeof b === "string") return a < b;
  if (!isNumber(a) || !isNumber(b))
    throw new PyException("TypeError", `'<' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
  return num(a) < num(b);
}
export const gt = (a: V, b: V): boolean => lt(b, a);
export const le = (a: V, b: V): boolean => !gt(a, b);
export const ge = (a: V, b: V): boolean => !lt(a, b);

/** Python's round(): half-even on the exact binary value; an int stays an int. */
export function pyRound(v: V, ndigits: V = null): V {
  if (!isNumber(v)) throw new PyException("TypeError", `type ${typeName(v)} doesn't define __round__ method`);
  if (ndigits !== null && typeof ndigits !== "number" && typeof ndigits !== "boolean")
    throw new PyException("TypeError", `'${typeName(ndigits)}' object cannot be interpreted as an integer`);
  const x = num(v);
  const n = ndigits === null ? 0 : num(ndigits);
  if (!isFloatLike(v)) return n >= 0 ? x : Number(fixedHalfEven(x / 10 ** -n, 0)) * 10 ** -n;
  if (!Number.isFinite(x)) return ndigits === null ? x : f(x);
  const rounded = Number(fixedHalfEven(x, n));
  return ndigits === null ? rounded : f(rounded);
}

/** `f"{x:.nf}"`: JS toFixed rounds exact ties away from zero; Python rounds them to even. */
export function fixedHalfEven(x: number, digits: number): string {
  const plain = x.toFixed(digits);
  const exact = Math.abs(x).toFixed(Math.min(100, digits + 60));
  const point = exact.indexOf(".");
  if (!/^50*$/.test(exact.slice(point + 1 + digits))) return plain;
  const kept = exact.slice(0, digits === 0 ? point : point + 1 + digits);
  if (Number(kept[kept.length - 1]) % 2 !== 0) return plain;
  return x < 0 ? `-${kept}` : kept;
}

export function typeName(v: V): string {
  if (v === null) return "NoneType";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number") return "int";
  if (typeof v === "string") return "str";
  if (v instanceof PyFloat) return "float";
  if (v instanceof PyTuple) return "tuple";
  if (v instanceof PySet) return "set";
  if (v instanceof PyDict) return "dict";
  if (v instanceof PyOpaque) return v.repr.slice(0, v.repr.indexOf("("));
  if (Array.isArray(v)) return "list";
  return v.pyClass;
}

// ─── truth, equality, containers ────────────────────────────────────────────────────────────────

export function truthy(v: V): boolean {
  if (v === null) return false;
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "string") return v.length > 0;
  if (v instanceof PyFloat || v instanceof PyOpaque) return num(v) !== 0;
  if (v instanceof PyTuple) return v.items.length > 0;
  if (v instanceof PySet) return v.items.size > 0;
  if (v instanceof PyDict) return v.size > 0;
  if (Array.isArray(v)) return v.length > 0;
  return true;
}

/** Python `==`. */
export function eq(a: V, b: V): boolean {
  if (isNumber(a) || isNumber(b)) return isNumber(a) && isNumber(b) && num(a) === num(b);
  if (a === null || b === null || typeof a === "string" || typeof b === "string") return a === b;
  if (Array.isArray(a)) return Array.isArray(b) && seqEq(a, b);
  if (a instanceof PyTuple) return b instanceof PyTuple && seqEq(a.items, b.items);
  if (a instanceof PySet)
    return b instanceof PySet && a.items.size === b.items.size && [...a.items].every((k) => b.items.has(k));
  if (a instanceof PyDict) {
    if (!(b instanceof PyDict) || a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !eq(v, b.get(k)!)) return false;
    return true;
  }
  if (isPyObject(a)) return isPyObject(b) && a.pyEq(b);
  return false;
}

function seqEq(a: V[], b: V[]): boolean {
  return a.length === b.length && a.every((x, i) => eq(x, b[i]!));
}

/** A dict key as Python hashes it: an integral float finds its int; unhashable keys raise. */
export function key(v: V): DictKey {
  if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
  if (v instanceof PyFloat && Number.isInteger(v.value)) return v.value;
  if (v instanceof PyFloat) return v.value;
  throw new PyException("TypeError", `unhashable type: '${typeName(v)}'`);
}

/** Python `x in container`. */
export function contains(container: V, item: V): boolean {
  if (typeof container === "string") {
    if (typeof item !== "string")
      throw new PyException("TypeError", `'in <string>' requires string as left operand, not ${typeName(item)}`);
    return container.includes(item);
  }
  if (container instanceof PyDict) return container.has(key(item));
  if (container instanceof PySet) return container.items.has(key(item));
  if (Array.isArray(container)) return container.some((x) => eq(x, item));
  if (container instanceof PyTuple) return container.items.some((x) => eq(x, item));
  throw new PyException("TypeError", `argument of type '${typeName(container)}' is not iterable`);
}

export function deepCopy<T extends V>(v: T): T {
  const value: V = v;
  if (Array.isArray(value)) return value.map(deepCopy) as T;
  if (value instanceof PyDict) return dict([...value].map(([k, x]) => [k, deepCopy(x)] as const)) as T;
  if (value instanceof PyTuple) return new PyTuple(value.items.map(deepCopy)) as T;
  if (value instanceof PySet) return new PySet(new Set(value.items)) as T;
  return v;
}

/** A parsed literal (call argument, tagged-JSON config) as a mutable value. */
export function fromPyValue(v: PyValue): V {
  switch (v.kind) {
    case "none":
      return null;
    case "bool":
    case "int":
    case "str":
      return v.value;
    case "float":
      return f(v.value);
    case "list":
      return v.items.map(fromPyValue);
    case "tuple":
      return new PyTuple(v.items.map(fromPyValue));
    case "dict":
      return dict(v.entries.map(([k, x]) => [key(fromPyValue(k)), fromPyValue(x)] as const));
    case "opaque":
      return new PyOpaque(v.repr, Number.NaN);
  }
}

export function asDict(v: V | undefined): PyDict {
  if (v instanceof PyDict) return v;
  throw new PyException("TypeError", `'${typeName(v ?? null)}' object is not a mapping`);
}

export function asList(v: V | undefined): V[] {
  if (Array.isArray(v)) return v;
  if (v instanceof PyTuple) return v.items;
  if (v instanceof PyDict) return [...v.keys()];
  if (typeof v === "string") return [...v];
  throw new PyException("TypeError", `'${typeName(v ?? null)}' object is not iterable`);
}

export function asStr(v: V | undefined): string {
  if (typeof v === "string") return v;
  throw new PyException("AttributeError", `'${typeName(v ?? null)}' object has no attribute 'lower'`);
}

/** `d[k]`: a missing key raises KeyError as Python does. */
export function getItem(d: V, k: V): V {
  if (d instanceof PyDict) {
    const hk = key(k);
    if (!d.has(hk)) throw new PyException("KeyError", repr(k));
    return d.get(hk)!;
  }
  if (Array.isArray(d) || typeof d === "string") {
    const items = typeof d === "string" ? [...d] : d;
    const i = num(k);
    const at = i < 0 ? items.length + i : i;
    if (at < 0 || at >= items.length) throw new PyException("IndexError", `${typeName(d)} index out of range`);
    return items[at]!;
  }
  throw new PyException("TypeError", `'${typeName(d)}' object is not subscriptable`);
}

// ─── printing ───────────────────────────────────────────────────────────────────────────────────

function keyRepr(k: DictKey): string {
  return repr(k);
}

/** Python `repr()`. */
export function repr(v: V): string {
  if (v === null) return "None";
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "number") return Number.isInteger(v) ? BigInt(v).toString() : pyFloatRepr(v);
  if (typeof v === "string") return pyStrRepr(v);
  if (v instanceof PyFloat) return pyFloatRepr(v.value);
  if (v instanceof PyOpaque) return v.repr;
  if (v instanceof PyTuple)
    return v.items.length === 1 ? `(${repr(v.items[0]!)},)` : `(${v.items.map(repr).join(", ")})`;
  if (v instanceof PySet) return v.items.size === 0 ? "set()" : `{${[...v.items].map(keyRepr).join(", ")}}`;
  if (v instanceof PyDict) return `{${[...v].map(([k, x]) => `${keyRepr(k)}: ${repr(x)}`).join(", ")}}`;
  if (Array.isArray(v)) return `[${v.map(repr).join(", ")}]`;
  return v.pyRepr();
}

/** Python `str()`: a string is itself, anything else its repr. */
export function str(v: V): string {
  return typeof v === "string" ? v : repr(v);
}

class NotSerializable extends Error {}

/** Python `json.dumps(v)` with its defaults (ensure_ascii, ", " and ": "); throws when Python would. */
export function jsonDumps(v: V): string {
  if (v === null) return "null";
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "number") return repr(v);
  if (typeof v === "string") return jsonString(v);
  if (v instanceof PyFloat) {
    if (Number.isNaN(v.value)) return "NaN";
    if (!Number.isFinite(v.value)) return v.value > 0 ? "Infinity" : "-Infinity";
    return pyFloatRepr(v.value);
  }
  if (Array.isArray(v)) return `[${v.map(jsonDumps).join(", ")}]`;
  if (v instanceof PyTuple) return `[${v.items.map(jsonDumps).join(", ")}]`;
  if (v instanceof PyDict) return `{${[...v].map(([k, x]) => `${jsonKey(k)}: ${jsonDumps(x)}`).join(", ")}}`;
  throw new NotSerializable(`Object of type ${typeName(v)} is not JSON serializable`);
}

function jsonKey(k: DictKey): string {
  if (typeof k === "string") return jsonString(k);
  if (k === null) return '"null"';
  if (typeof k === "boolean") return k ? '"true"' : '"false"';
  return jsonString(Number.isInteger(k) ? String(k) : pyFloatRepr(k));
}

const JSON_ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\b": "\\b",
  "\f": "\\f",
};

function jsonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    const code = s.charCodeAt(i);
    const escaped = JSON_ESCAPES[ch];
    if (escaped) out += escaped;
    else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

/** How BFCL's executor turns a method's return value into the result string. */
export function resultString(v: V): string {
  if (typeof v === "string") return v;
  if (v instanceof PyDict) {
    try {
      return jsonDumps(v);
    } catch (error) {
      if (error instanceof NotSerializable) return str(v);
      throw error;
    }
  }
  return str(v);
}

/**
 * A stable form of a value for the parity test, the same as the Python driver writes: ints as JSON
 * numbers, floats as `{f: repr}`, dicts as `{d: [[key, value]…]}` in insertion order, sets sorted.
 */
export function canonical(v: V): unknown {
  if (v === null || typeof v === "boolean" || typeof v === "string") return v;
  if (typeof v === "number") return Number.isInteger(v) ? v : { f: pyFloatRepr(v) };
  if (v instanceof PyFloat) return { f: pyFloatRepr(v.value) };
  if (v instanceof PyOpaque) return { o: v.repr };
  if (Array.isArray(v)) return v.map(canonical);
  if (v instanceof PyTuple) return { t: v.items.map(canonical) };
  if (v instanceof PySet) return { s: [...v.items].map((k) => canonical(k)).sort(compareCanonical) };
  if (v instanceof PyDict) return { d: [...v].map(([k, x]) => [canonical(k), canonical(x)]) };
  return v.canonical();
}

function compareCanonical(a: unknown, b: unknown): number {
  const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** `d.get(k, default)`. */
export function dget(d: PyDict, k: DictKey, fallback: V): V {
  return d.has(k) ? d.get(k)! : fallback;
}

/** Python `str.splitlines()`. */
export function splitlines(s: string): string[] {
  const lines = s.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/);
  if (lines.length > 0 && lines.at(-1) === "") lines.pop();
  return lines;
}

/** Python `str.split()` with no separator: runs of whitespace, no empty pieces. */
export function splitWhitespace(s: string): string[] {
  return s.split(/[\s\x1c-\x1f\x85]+/).filter((piece) => piece.length > 0);
}

/** Python's `len()` of a str counts code points. */
export function strLen(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
