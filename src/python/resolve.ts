/**
 * Turns a parsed Python expression into calls, with BFCL's `resolve_ast_by_type` rules:
 * dotted names joined; only keyword arguments kept; literals as Python reads them; a unary operator
 * on a literal negates it (whatever the operator — BFCL's `-operand.value`); a BinOp is evaluated;
 * a bare name becomes its name as a string; a nested call without keywords becomes its source text,
 * one with keywords a nested `{name: {args}}`; a subscript becomes its source text; `...` becomes
 * the string "..."; tuples stay tuples. Anything else (sets, attributes, lambdas, f-strings,
 * comparisons…) is unsupported, which makes the whole output undecodable.
 */

import type { PyNode } from "./ast.ts";
import { evaluate, PyEvalError } from "./evaluate.ts";
import { unparse } from "./unparse.ts";
import { type PyValue, py, pyEquals } from "./value.ts";

/** One decoded call: the function name and its keyword arguments, in source order. */
export interface DecodedCall {
  readonly name: string;
  readonly args: ReadonlyMap<string, PyValue>;
}

/** The key BFCL's decoder stores a `**mapping` argument under (Python's `None`). */
export const KWARGS_KEY = "None";

/** Top level: one call, or a tuple/list/set of calls (BFCL reads `.elts` and asserts each is a Call). */
export function resolveCalls(body: PyNode): DecodedCall[] {
  if (body.type === "Call") return [resolveCall(body)];
  if (body.type !== "Tuple" && body.type !== "List" && body.type !== "Set") {
    throw new PyEvalError(`'${body.type}' object has no attribute 'elts'`);
  }
  return body.elts.map((elt) => {
    if (elt.type !== "Call") throw new PyEvalError(`expected a function call, got ${elt.type}`);
    return resolveCall(elt);
  });
}

function resolveCall(node: PyNode & { type: "Call" }): DecodedCall {
  const args = new Map<string, PyValue>();
  for (const kw of node.keywords) args.set(kw.arg ?? KWARGS_KEY, resolveValue(kw.value));
  return { name: callName(node.func), args };
}

/** `a.b.c` → "a.b.c"; a non-name base (a call, a subscript) contributes nothing, as in BFCL. */
function callName(func: PyNode): string {
  const parts: string[] = [];
  let part = func;
  while (part.type === "Attribute") {
    parts.push(part.attr);
    part = part.value;
  }
  if (part.type === "Name") parts.push(part.id);
  return parts.reverse().join(".");
}

function resolveValue(node: PyNode): PyValue {
  switch (node.type) {
    case "Constant":
      return node.value;
    case "Ellipsis":
      return py.str("...");
    case "UnaryOp":
      return negateLiteral(node.operand);
    case "List":
      return py.list(node.elts.map(resolveValue));
    case "Tuple":
      return py.tuple(node.elts.map(resolveValue));
    case "Dict":
      return resolveDict(node);
    case "BinOp":
      return evaluate(node);
    case "Name":
      return py.str(node.id);
    case "Call":
      if (node.keywords.length === 0) return py.str(unparse(node));
      return callAsValue(resolveCall(node));
    case "Subscript":
      return py.str(`${unparse(node.value)}[${unparse(node.slice)}]`);
    default:
      throw new PyEvalError(`Unsupported AST type: <class 'ast.${node.type}'>`);
  }
}

/** A nested call with keywords, as BFCL stores it: `{name: {arg: value}}`. */
function callAsValue(call: DecodedCall): PyValue {
  const args = [...call.args].map(([k, v]) => [k === KWARGS_KEY ? py.none() : py.str(k), v] as const);
  return py.dict([[py.str(call.name), py.dict(args)]]);
}

/** BFCL reads `-operand.value`: only a literal operand has one, and the operator itself is ignored. */
function negateLiteral(operand: PyNode): PyValue {
  if (operand.type !== "Constant") throw new PyEvalError(`'${operand.type}' object has no attribute 'value'`);
  const v = operand.value;
  if (v.kind === "int" || v.kind === "float") return { kind: v.kind, value: -v.value };
  if (v.kind === "bool") return py.int(v.value ? -1 : 0);
  throw new PyEvalError(`bad operand type for unary -: '${v.kind === "opaque" ? v.type : v.kind}'`);
}

function isHashable(v: PyValue): boolean {
  if (v.kind === "list" || v.kind === "dict") return false;
  return v.kind !== "tuple" || v.items.every(isHashable);
}

/** Dict display: later duplicates overwrite the value but keep the first key's position. */
function resolveDict(node: PyNode & { type: "Dict" }): PyValue {
  const entries: [PyValue, PyValue][] = [];
  node.keys.forEach((keyNode, i) => {
    if (keyNode === null) throw new PyEvalError("Unsupported AST type: <class 'NoneType'>");
    const key = resolveValue(keyNode);
    if (!isHashable(key)) throw new PyEvalError(`unhashable type: '${key.kind}'`);
    const value = resolveValue(node.values[i]!);
    const existing = entries.findIndex(([k]) => pyEquals(k, key));
    if (existing >= 0) entries[existing] = [entries[existing]![0], value];
    else entries.push([key, value]);
  });
  return py.dict(entries);
}
