import type { PyValue } from "./value.ts";

/** The Python expression AST the parser builds; node names follow Python's `ast` module. */
export type PyNode =
  /** str, int, float, bool, None — and bytes/complex as opaque values. */
  | { readonly type: "Constant"; readonly value: PyValue }
  | { readonly type: "Ellipsis" }
  | { readonly type: "JoinedStr"; readonly source: string }
  | { readonly type: "Name"; readonly id: string }
  | { readonly type: "Attribute"; readonly value: PyNode; readonly attr: string }
  | {
      readonly type: "Call";
      readonly func: PyNode;
      readonly args: readonly PyNode[];
      readonly keywords: readonly Keyword[];
    }
  | { readonly type: "Subscript"; readonly value: PyNode; readonly slice: PyNode }
  | { readonly type: "Slice"; readonly lower?: PyNode; readonly upper?: PyNode; readonly step?: PyNode }
  | { readonly type: "Starred"; readonly value: PyNode }
  | { readonly type: "UnaryOp"; readonly op: UnaryOperator; readonly operand: PyNode }
  | { readonly type: "BinOp"; readonly op: BinaryOperator; readonly left: PyNode; readonly right: PyNode }
  | { readonly type: "BoolOp"; readonly op: "and" | "or"; readonly values: readonly PyNode[] }
  | {
      readonly type: "Compare";
      readonly left: PyNode;
      readonly ops: readonly string[];
      readonly comparators: readonly PyNode[];
    }
  | { readonly type: "IfExp"; readonly test: PyNode; readonly body: PyNode; readonly orelse: PyNode }
  | { readonly type: "Lambda"; readonly params: readonly LambdaParam[]; readonly body: PyNode }
  | {
      readonly type: "GeneratorExp" | "ListComp" | "SetComp" | "DictComp";
      /** For DictComp, `key: elt`. */
      readonly key?: PyNode;
      readonly elt: PyNode;
      readonly generators: readonly Comprehension[];
    }
  | { readonly type: "NamedExpr"; readonly target: string; readonly value: PyNode }
  | { readonly type: "List" | "Tuple" | "Set"; readonly elts: readonly PyNode[] }
  /** A `null` key is a `**mapping` entry. */
  | { readonly type: "Dict"; readonly keys: readonly (PyNode | null)[]; readonly values: readonly PyNode[] };

/** A keyword argument; `arg` is null for `**mapping`. */
export interface Keyword {
  readonly arg: string | null;
  readonly value: PyNode;
}

/** One `for target in iter if cond…` clause. */
export interface Comprehension {
  readonly target: PyNode;
  readonly iter: PyNode;
  readonly ifs: readonly PyNode[];
}

/** A lambda parameter: `x`, `x=default`, `*args`, `**kwargs`. */
export interface LambdaParam {
  readonly prefix: "" | "*" | "**";
  readonly name: string;
  readonly default?: PyNode;
}

export type UnaryOperator = "-" | "+" | "~" | "not";
export type BinaryOperator = "+" | "-" | "*" | "/" | "//" | "%" | "**" | "@" | "<<" | ">>" | "&" | "|" | "^";
