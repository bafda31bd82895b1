/**
 * Evaluates an arithmetic expression as Python would (BFCL runs `eval` on a BinOp argument, so
 * `2**10` → 1024 and `5/2` → 2.5): literals, containers, unary and binary operators with Python's
 * int/float rules (true division gives a float, floor division and modulo follow the divisor's sign,
 * int ** negative int gives a float, sequences concatenate and repeat). Names, calls and other
 * constructs fail as they would in BFCL's evaluation context, which defines no variables.
 */

import type { BinaryOperator, PyNode } from "./ast.ts";
import { DecodeFailure } from "./errors.ts";
import { type PyValue, py, pyRepr } from "./value.ts";

/** A Python runtime error raised while evaluating (NameError, TypeError, ZeroDivisionError…). */
export class PyEvalError extends DecodeFailure {
  constructor(message: string) {
    super("PY_EVAL", message);
  }
}

type Num = { kind: "int" | "float"; value: number };

function asNumber(v: PyValue): Num | undefined {
  if (v.kind === "int" || v.kind === "float") return { kind: v.kind, value: v.value };
  if (v.kind === "bool") return { kind: "int", value: v.value ? 1 : 0 };
  return undefined;
}

function typeName(v: PyValue): string {
  return v.kind === "none" ? "NoneType" : v.kind === "opaque" ? v.type : v.kind;
}

function unsupported(op: string, a: PyValue, b: PyValue): PyEvalError {
  return new PyEvalError(`unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
}

function truthy(v: PyValue): boolean {
  switch (v.kind) {
    case "none":
      return false;
    case "bool":
      return v.value;
    case "int":
    case "float":
      return v.value !== 0;
    case "str":
      return v.value.length > 0;
    case "list":
    case "tuple":
      return v.items.length > 0;
    case "dict":
      return v.entries.length > 0;
    case "opaque":
      return true;
  }
}

export function evaluate(node: PyNode): PyValue {
  switch (node.type) {
    case "Constant":
      if (node.value.kind === "opaque") throw new PyEvalError(`unsupported ${node.value.type} literal in arithmetic`);
      return node.value;
    case "Name":
      throw new PyEvalError(`name '${node.id}' is not defined`);
    case "List":
      return py.list(node.elts.map(evaluate));
    case "Tuple":
      return py.tuple(node.elts.map(evaluate));
    case "Dict":
      return py.dict(
        node.keys.map((k, i) => {
          if (k === null) throw new PyEvalError("unsupported ** in arithmetic");
          return [evaluate(k), evaluate(node.values[i]!)] as const;
        }),
      );
    case "UnaryOp":
      return unary(node.op, evaluate(node.operand));
    case "BinOp":
      return binary(node.op, evaluate(node.left), evaluate(node.right));
    default:
      throw new PyEvalError(`unsupported expression in arithmetic: ${node.type}`);
  }
}

function unary(op: string, v: PyValue): PyValue {
  if (op === "not") return py.bool(!truthy(v));
  const n = asNumber(v);
  if (n === undefined || (op === "~" && n.kind === "float")) {
    throw new PyEvalError(`bad operand type for unary ${op}: '${typeName(v)}'`);
  }
  if (op === "~") return py.int(-n.value - 1);
  return { kind: n.kind, value: op === "-" ? -n.value : n.value };
}

function numeric(kind: "int" | "float", value: number): PyValue {
  return { kind, value };
}

function repeat(seq: PyValue, times: number): PyValue {
  const n = Math.max(0, times);
  if (seq.kind === "str") return py.str(seq.value.repeat(n));
  const items = seq.kind === "list" || seq.kind === "tuple" ? seq.items : [];
  const out = Array.from({ length: n }, () => items).flat();
  return seq.kind === "tuple" ? py.tuple(out) : py.list(out);
}

function isSequence(v: PyValue): boolean {
  return v.kind === "str" || v.kind === "list" || v.kind === "tuple";
}

function binary(op: BinaryOperator, a: PyValue, b: PyValue): PyValue {
  const x = asNumber(a);
  const y = asNumber(b);
  if (x === undefined || y === undefined) return sequenceOp(op, a, b, x, y);
  const kind = x.kind === "float" || y.kind === "float" ? "float" : "int";
  switch (op) {
    case "+":
      return numeric(kind, x.value + y.value);
    case "-":
      return numeric(kind, x.value - y.value);
    case "*":
      return numeric(kind, x.value * y.value);
    case "/":
      if (y.value === 0) throw new PyEvalError("division by zero");
      return py.float(x.value / y.value);
    case "//":
      if (y.value === 0) throw new PyEvalError("integer division or modulo by zero");
      return numeric(kind, Math.floor(x.value / y.value));
    case "%": {
      if (y.value === 0) throw new PyEvalError("integer modulo by zero");
      const r = x.value % y.value;
      return numeric(kind, r !== 0 && r < 0 !== y.value < 0 ? r + y.value : r);
    }
    case "**":
      return power(x, y);
    case "@":
      throw unsupported(op, a, b);
    default:
      return bitwise(op, a, b, x, y);
  }
}

function power(x: Num, y: Num): PyValue {
  if (x.value === 0 && y.value < 0) throw new PyEvalError("0.0 cannot be raised to a negative power");
  if (x.value < 0 && !Number.isInteger(y.value)) throw new PyEvalError("complex result in arithmetic");
  const result = x.value ** y.value;
  if (x.kind === "int" && y.kind === "int" && y.value >= 0) return py.int(result);
  if (!Number.isFinite(result)) throw new PyEvalError("(34, 'Numerical result out of range')");
  return py.float(result);
}

function bitwise(op: BinaryOperator, a: PyValue, b: PyValue, x: Num, y: Num): PyValue {
  if (x.kind === "float" || y.kind === "float") throw unsupported(op, a, b);
  const l = BigInt(x.value);
  const r = BigInt(y.value);
  if ((op === "<<" || op === ">>") && r < 0n) throw new PyEvalError("negative shift count");
  const value = Number(op === "<<" ? l << r : op === ">>" ? l >> r : op === "&" ? l & r : op === "|" ? l | r : l ^ r);
  // bool & bool (and | ^) stays a bool in Python.
  if (a.kind === "bool" && b.kind === "bool" && (op === "&" || op === "|" || op === "^")) return py.bool(value !== 0);
  return py.int(value);
}

function sequenceOp(op: BinaryOperator, a: PyValue, b: PyValue, x: Num | undefined, y: Num | undefined): PyValue {
  if (op === "+" && a.kind === b.kind) {
    if (a.kind === "str" && b.kind === "str") return py.str(a.value + b.value);
    if ((a.kind === "list" || a.kind === "tuple") && (b.kind === "list" || b.kind === "tuple")) {
      const items = [...a.items, ...b.items];
      return a.kind === "tuple" ? py.tuple(items) : py.list(items);
    }
  }
  if (op === "*") {
    if (isSequence(a) && y?.kind === "int") return repeat(a, y.value);
    if (isSequence(b) && x?.kind === "int") return repeat(b, x.value);
  }
  if (op === "%" && a.kind === "str") throw new PyEvalError(`unsupported string formatting: ${pyRepr(a)}`);
  throw unsupported(op, a, b);
}
