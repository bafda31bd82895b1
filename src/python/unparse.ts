/**
 * Source text for an AST node, as Python's `ast.unparse` writes it (BFCL keeps a nested call without
 * keywords, and a subscript, as that text): normalised spacing, `repr` for constants, parentheses
 * only where precedence needs them.
 */

import type { BinaryOperator, Comprehension, PyNode } from "./ast.ts";
import { pyRepr } from "./value.ts";

// Python's ast._Precedence, loosest first.
const Prec = {
  NamedExpr: -1,
  Tuple: 0,
  Test: 1,
  Or: 2,
  And: 3,
  Not: 4,
  Cmp: 5,
  Bor: 6,
  Bxor: 7,
  Band: 8,
  Shift: 9,
  Arith: 10,
  Term: 11,
  Factor: 12,
  Power: 13,
  Atom: 14,
} as const;
type Prec = number;

const BINARY_PRECEDENCE: Readonly<Record<BinaryOperator, Prec>> = {
  "|": Prec.Bor,
  "^": Prec.Bxor,
  "&": Prec.Band,
  "<<": Prec.Shift,
  ">>": Prec.Shift,
  "+": Prec.Arith,
  "-": Prec.Arith,
  "*": Prec.Term,
  "/": Prec.Term,
  "//": Prec.Term,
  "%": Prec.Term,
  "@": Prec.Term,
  "**": Prec.Power,
};

export function unparse(node: PyNode): string {
  return write(node, Prec.Test);
}

function wrap(text: string, own: Prec, context: Prec): string {
  return context > own ? `(${text})` : text;
}

function items(nodes: readonly PyNode[]): string {
  return nodes.map((n) => write(n, Prec.Test)).join(", ");
}

function write(node: PyNode, context: Prec): string {
  switch (node.type) {
    case "Constant":
      return pyRepr(node.value);
    case "Ellipsis":
      return "...";
    case "JoinedStr":
      return node.source;
    case "Name":
      return node.id;
    case "Attribute":
      return `${write(node.value, Prec.Atom)}.${node.attr}`;
    case "Call": {
      const keywords = node.keywords.map((k) =>
        k.arg === null ? `**${write(k.value, Prec.Bor)}` : `${k.arg}=${write(k.value, Prec.Test)}`,
      );
      return `${write(node.func, Prec.Atom)}(${[...node.args.map((a) => write(a, Prec.Test)), ...keywords].join(", ")})`;
    }
    case "Subscript": {
      const slice = node.slice;
      const inner = slice.type === "Tuple" && slice.elts.length > 0 ? tupleItems(slice.elts) : write(slice, Prec.Test);
      return `${write(node.value, Prec.Atom)}[${inner}]`;
    }
    case "Slice": {
      const part = (n: PyNode | undefined) => (n ? write(n, Prec.Test) : "");
      return `${part(node.lower)}:${part(node.upper)}${node.step ? `:${part(node.step)}` : ""}`;
    }
    case "Starred":
      return `*${write(node.value, Prec.Bor)}`;
    case "UnaryOp": {
      const own = node.op === "not" ? Prec.Not : Prec.Factor;
      const op = node.op === "not" ? "not " : node.op;
      return wrap(`${op}${write(node.operand, own)}`, own, context);
    }
    case "BinOp": {
      const own = BINARY_PRECEDENCE[node.op];
      const rightAssoc = node.op === "**";
      const left = write(node.left, rightAssoc ? own + 1 : own);
      const right = write(node.right, rightAssoc ? own : own + 1);
      return wrap(`${left} ${node.op} ${right}`, own, context);
    }
    case "BoolOp": {
      const own = node.op === "and" ? Prec.And : Prec.Or;
      // Python raises the level with each operand (ast._Unparser.visit_BoolOp).
      return wrap(node.values.map((v, i) => write(v, own + 1 + i)).join(` ${node.op} `), own, context);
    }
    case "Compare": {
      const parts = [write(node.left, Prec.Bor)];
      for (const [i, op] of node.ops.entries()) parts.push(op, write(node.comparators[i]!, Prec.Bor));
      return wrap(parts.join(" "), Prec.Cmp, context);
    }
    case "IfExp": {
      const text = `${write(node.body, Prec.Or)} if ${write(node.test, Prec.Or)} else ${write(node.orelse, Prec.Test)}`;
      return wrap(text, Prec.Test, context);
    }
    case "GeneratorExp":
      return `(${comprehension(node.elt, node.generators)})`;
    case "ListComp":
      return `[${comprehension(node.elt, node.generators)}]`;
    case "SetComp":
      return `{${comprehension(node.elt, node.generators)}}`;
    case "DictComp":
      return `{${comprehension(node.elt, node.generators, node.key)}}`;
    case "NamedExpr":
      return wrap(`${node.target} := ${write(node.value, Prec.Atom)}`, Prec.NamedExpr, context);
    case "Lambda": {
      const params = node.params.map(
        (p) => `${p.prefix}${p.name}${p.default ? `=${write(p.default, Prec.Test)}` : ""}`,
      );
      const head = params.length > 0 ? `lambda ${params.join(", ")}` : "lambda";
      return wrap(`${head}: ${write(node.body, Prec.Test)}`, Prec.Test, context);
    }
    case "List":
      return `[${items(node.elts)}]`;
    case "Tuple":
      return context === Prec.Tuple && node.elts.length > 0 ? tupleItems(node.elts) : `(${tupleItems(node.elts)})`;
    case "Set":
      return node.elts.length === 0 ? "{*()}" : `{${items(node.elts)}}`;
    case "Dict": {
      const entries = node.keys.map((k, i) => {
        const value = node.values[i]!;
        return k === null ? `**${write(value, Prec.Bor)}` : `${write(k, Prec.Test)}: ${write(value, Prec.Test)}`;
      });
      return `{${entries.join(", ")}}`;
    }
  }
}

/** Tuple items: a one-element tuple keeps its trailing comma. */
function tupleItems(elts: readonly PyNode[]): string {
  return elts.length === 1 ? `${write(elts[0]!, Prec.Test)},` : items(elts);
}

function comprehension(elt: PyNode, generators: readonly Comprehension[], key?: PyNode): string {
  const head = key ? `${write(key, Prec.Test)}: ${write(elt, Prec.Test)}` : write(elt, Prec.Test);
  const clauses = generators.map((g) => {
    const target = g.target.type === "Tuple" ? tupleItems(g.target.elts) : write(g.target, Prec.Tuple);
    const ifs = g.ifs.map((c) => ` if ${write(c, Prec.Or + 1)}`).join("");
    return ` for ${target} in ${write(g.iter, Prec.Or + 1)}${ifs}`;
  });
  return head + clauses.join("");
}
