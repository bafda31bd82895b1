/**
 * A recursive-descent parser for Python expressions, as `ast.parse(src, mode="eval")` accepts them:
 * the full operator-precedence ladder, calls (keyword/positional/starred rules), attributes,
 * subscripts and slices, displays and comprehensions, lambda, conditional and named expressions.
 * `await`, `yield` and `async for` are not supported (a syntax error here). Nothing is evaluated here.
 */

import type { BinaryOperator, Comprehension, Keyword, LambdaParam, PyNode } from "./ast.ts";
import { PySyntaxError, type StringPiece, type Token, tokenize } from "./tokenizer.ts";
import { py } from "./value.ts";

const KEYWORDS = new Set(
  (
    "False None True and as assert async await break class continue def del elif else except finally for from " +
    "global if import in is lambda nonlocal not or pass raise return try while with yield"
  ).split(" "),
);

/** Binary operator binding levels (higher binds tighter); all left-associative. `**` is in power(). */
const BINARY_LEVEL: ReadonlyMap<string, number> = new Map([
  ["|", 1],
  ["^", 2],
  ["&", 3],
  ["<<", 4],
  [">>", 4],
  ["+", 5],
  ["-", 5],
  ["*", 6],
  ["/", 6],
  ["//", 6],
  ["%", 6],
  ["@", 6],
]);
const COMPARE_OPS = new Set(["==", "!=", "<", ">", "<=", ">="]);

/**
 * Levels of nesting read: brackets, unary operators, `not`, conditional tails, and the links of left-leaning
 * chains (`1+1+1…`, `a.b(c)[0]…`, read in a loop but as deep a tree as they are long, which evaluation and
 * unparsing recurse over). CPython's tokenizer stops at 200 nested brackets too. Past it, a syntax error,
 * never a RangeError.
 */
const MAX_NESTING = 200;

/** Parses one Python expression (a bare tuple allowed), like `ast.parse(src, mode="eval").body`. */
export function parseExpression(src: string): PyNode {
  return new Parser(tokenize(src)).parseInput();
}

class Parser {
  private index = 0;
  private depth = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  parseInput(): PyNode {
    const node = this.starExpressions();
    while (this.peek().type === "newline") this.index++;
    const tok = this.peek();
    if (tok.type !== "end") throw new PySyntaxError("invalid syntax", tok.pos);
    return node;
  }

  // ─── token helpers ──────────────────────────────────────────────────────────────────────────

  private peek(offset = 0): Token {
    return this.tokens[this.index + offset] ?? this.tokens[this.tokens.length - 1]!;
  }

  private isOp(text: string, offset = 0): boolean {
    const tok = this.peek(offset);
    return tok.type === "op" && tok.text === text;
  }

  private isKeyword(text: string, offset = 0): boolean {
    const tok = this.peek(offset);
    return tok.type === "name" && tok.text === text;
  }

  private eatOp(text: string): boolean {
    if (!this.isOp(text)) return false;
    this.index++;
    return true;
  }

  private eatKeyword(text: string): boolean {
    if (!this.isKeyword(text)) return false;
    this.index++;
    return true;
  }

  private expectOp(text: string): void {
    if (!this.eatOp(text)) throw this.error();
  }

  /** One level of descent, counted against MAX_NESTING (no unwinding needed: an error ends the parse). */
  private descend(): void {
    if (this.depth >= MAX_NESTING) throw this.error("too many nested expressions");
    this.depth++;
  }

  private ascend(node: PyNode): PyNode {
    this.depth--;
    return node;
  }

  private error(message = "invalid syntax"): PySyntaxError {
    return new PySyntaxError(message, this.peek().pos);
  }

  /** True when the next token can start an expression (used after a trailing comma). */
  private startsExpression(): boolean {
    const tok = this.peek();
    if (tok.type === "number" || tok.type === "string") return true;
    if (tok.type === "name")
      return !KEYWORDS.has(tok.text) || ["True", "False", "None", "not", "lambda"].includes(tok.text);
    return tok.type === "op" && ["(", "[", "{", "-", "+", "~", "*", "..."].includes(tok.text);
  }

  // ─── expressions ────────────────────────────────────────────────────────────────────────────

  /** `a, b, *c` — a tuple when there is a comma. */
  private starExpressions(): PyNode {
    const first = this.starExpression();
    if (!this.isOp(",")) return first;
    const elts = [first];
    while (this.eatOp(",")) {
      if (!this.startsExpression()) break;
      elts.push(this.starExpression());
    }
    return { type: "Tuple", elts };
  }

  private starExpression(): PyNode {
    if (this.eatOp("*")) return { type: "Starred", value: this.binary(0) };
    return this.expression();
  }

  private expression(): PyNode {
    this.descend();
    return this.ascend(this.conditional());
  }

  private conditional(): PyNode {
    if (this.isKeyword("lambda")) return this.lambda();
    const body = this.disjunction();
    if (!this.eatKeyword("if")) return body;
    const test = this.disjunction();
    if (!this.eatKeyword("else")) throw this.error("expected 'else' after 'if' expression");
    return { type: "IfExp", test, body, orelse: this.expression() };
  }

  private lambda(): PyNode {
    this.index++;
    const params: LambdaParam[] = [];
    while (!this.isOp(":")) {
      const prefix = this.eatOp("**") ? "**" : this.eatOp("*") ? "*" : "";
      const tok = this.peek();
      if (tok.type !== "name" || KEYWORDS.has(tok.text)) throw this.error();
      this.index++;
      params.push({ prefix, name: tok.text, default: this.eatOp("=") ? this.expression() : undefined });
      if (!this.eatOp(",")) break;
    }
    this.expectOp(":");
    return { type: "Lambda", params, body: this.expression() };
  }

  /** `name := value` where Python allows it (call arguments, parentheses, displays), else an expression. */
  private namedExpression(): PyNode {
    const tok = this.peek();
    if (tok.type === "name" && this.isOp(":=", 1) && !KEYWORDS.has(tok.text)) {
      this.index += 2;
      return { type: "NamedExpr", target: tok.text, value: this.expression() };
    }
    return this.expression();
  }

  /** A display element or call argument: `*x` or a named expression. */
  private element(): PyNode {
    if (this.eatOp("*")) return { type: "Starred", value: this.binary(0) };
    return this.namedExpression();
  }

  private disjunction(): PyNode {
    return this.boolOp("or", () => this.conjunction());
  }

  private conjunction(): PyNode {
    return this.boolOp("and", () => this.inversion());
  }

  private boolOp(op: "and" | "or", operand: () => PyNode): PyNode {
    const first = operand();
    if (!this.isKeyword(op)) return first;
    const values = [first];
    while (this.eatKeyword(op)) values.push(operand());
    return { type: "BoolOp", op, values };
  }

  private inversion(): PyNode {
    if (this.eatKeyword("not")) {
      this.descend();
      return this.ascend({ type: "UnaryOp", op: "not", operand: this.inversion() });
    }
    return this.comparison();
  }

  private comparison(): PyNode {
    const left = this.binary(0);
    const ops: string[] = [];
    const comparators: PyNode[] = [];
    for (;;) {
      const op = this.compareOperator();
      if (op === undefined) break;
      ops.push(op);
      comparators.push(this.binary(0));
    }
    return ops.length === 0 ? left : { type: "Compare", left, ops, comparators };
  }

  private compareOperator(): string | undefined {
    const tok = this.peek();
    if (tok.type === "op" && COMPARE_OPS.has(tok.text)) {
      this.index++;
      return tok.text;
    }
    if (this.eatKeyword("in")) return "in";
    if (this.isKeyword("not") && this.isKeyword("in", 1)) {
      this.index += 2;
      return "not in";
    }
    if (this.eatKeyword("is")) return this.eatKeyword("not") ? "is not" : "is";
    return undefined;
  }

  /** Precedence climbing over the binary operators binding at least as tight as `minLevel`. */
  private binary(minLevel: number): PyNode {
    const depth = this.depth;
    let left = this.factor();
    for (;;) {
      const tok = this.peek();
      const level = tok.type === "op" ? BINARY_LEVEL.get(tok.text) : undefined;
      if (level === undefined || level < minLevel) {
        this.depth = depth;
        return left;
      }
      this.index++;
      this.descend(); // each operator deepens the left-leaning tree
      left = { type: "BinOp", op: tok.text as BinaryOperator, left, right: this.binary(level + 1) };
    }
  }

  private factor(): PyNode {
    this.descend();
    return this.ascend(this.unary());
  }

  private unary(): PyNode {
    const tok = this.peek();
    if (tok.type === "op" && (tok.text === "-" || tok.text === "+" || tok.text === "~")) {
      this.index++;
      return { type: "UnaryOp", op: tok.text, operand: this.factor() };
    }
    return this.power();
  }

  private power(): PyNode {
    const base = this.primary();
    if (!this.eatOp("**")) return base;
    return { type: "BinOp", op: "**", left: base, right: this.factor() };
  }

  private primary(): PyNode {
    const depth = this.depth;
    let node = this.atom();
    for (;;) {
      // each trailer (`.a`, `(…)`, `[…]`) wraps the node so far: one level deeper
      if (this.isOp(".") || this.isOp("(") || this.isOp("[")) this.descend();
      if (this.eatOp(".")) {
        const tok = this.peek();
        if (tok.type !== "name") throw this.error();
        this.index++;
        node = { type: "Attribute", value: node, attr: tok.text };
      } else if (this.eatOp("(")) {
        node = this.callArguments(node);
      } else if (this.eatOp("[")) {
        node = { type: "Subscript", value: node, slice: this.slices() };
        this.expectOp("]");
      } else {
        this.depth = depth;
        return node;
      }
    }
  }

  private callArguments(func: PyNode): PyNode {
    const args: PyNode[] = [];
    const keywords: Keyword[] = [];
    let sawKeyword = false;
    let sawKwUnpack = false;
    while (!this.isOp(")")) {
      const tok = this.peek();
      if (this.eatOp("**")) {
        keywords.push({ arg: null, value: this.expression() });
        sawKwUnpack = true;
      } else if (tok.type === "name" && this.isOp("=", 1)) {
        if (KEYWORDS.has(tok.text)) throw this.error();
        this.index += 2;
        keywords.push({ arg: tok.text, value: this.expression() });
        sawKeyword = true;
      } else {
        const starred = this.isOp("*");
        let arg = this.element();
        if (this.isKeyword("for")) arg = { type: "GeneratorExp", elt: arg, generators: this.comprehensions() };
        if (this.isOp("=")) throw this.error('expression cannot contain assignment, perhaps you meant "=="?');
        if (!starred && sawKwUnpack) throw this.error("positional argument follows keyword argument unpacking");
        if (!starred && sawKeyword) throw this.error("positional argument follows keyword argument");
        args.push(arg);
      }
      if (!this.eatOp(",")) break;
    }
    this.expectOp(")");
    return { type: "Call", func, args, keywords };
  }

  /** `for target in iter (if cond)*` clauses, after a display's first element. */
  private comprehensions(): Comprehension[] {
    const generators: Comprehension[] = [];
    while (this.eatKeyword("for")) {
      const target = this.targetList();
      if (!this.eatKeyword("in")) throw this.error();
      const iter = this.disjunction();
      const ifs: PyNode[] = [];
      while (this.eatKeyword("if")) ifs.push(this.disjunction());
      generators.push({ target, iter, ifs });
    }
    return generators;
  }

  private targetList(): PyNode {
    const elts: PyNode[] = [];
    let sawComma = false;
    for (;;) {
      elts.push(this.eatOp("*") ? { type: "Starred", value: this.binary(0) } : this.binary(0));
      if (!this.eatOp(",")) break;
      sawComma = true;
      if (this.isKeyword("in")) break;
    }
    return elts.length === 1 && !sawComma ? elts[0]! : { type: "Tuple", elts };
  }

  private slices(): PyNode {
    const first = this.slice();
    if (!this.isOp(",")) return first;
    const elts = [first];
    while (this.eatOp(",") && !this.isOp("]")) elts.push(this.slice());
    return { type: "Tuple", elts };
  }

  private slice(): PyNode {
    const lower = this.isOp(":") ? undefined : this.starExpression();
    if (!this.eatOp(":")) {
      if (lower === undefined) throw this.error();
      return lower;
    }
    const upper = this.isOp(":") || this.isOp("]") || this.isOp(",") ? undefined : this.expression();
    let step: PyNode | undefined;
    if (this.eatOp(":") && !this.isOp("]") && !this.isOp(",")) step = this.expression();
    return { type: "Slice", lower, upper, step };
  }

  // ─── atoms ──────────────────────────────────────────────────────────────────────────────────

  private atom(): PyNode {
    const tok = this.peek();
    switch (tok.type) {
      case "name":
        this.index++;
        return this.nameAtom(tok);
      case "number":
        this.index++;
        return numberNode(tok.text, tok.numberKind ?? "int");
      case "string":
        this.index++;
        return stringNode(tok.pieces ?? [], tok.text);
      case "op":
        if (tok.text === "...") {
          this.index++;
          return { type: "Ellipsis" };
        }
        if (tok.text === "(" || tok.text === "[" || tok.text === "{") {
          this.index++;
          return tok.text === "(" ? this.parenthesized() : tok.text === "[" ? this.listDisplay() : this.braceDisplay();
        }
        throw this.errorAt(tok);
      default:
        throw this.errorAt(tok);
    }
  }

  private errorAt(tok: Token): PySyntaxError {
    return new PySyntaxError(tok.type === "end" ? "unexpected EOF while parsing" : "invalid syntax", tok.pos);
  }

  private nameAtom(tok: Token): PyNode {
    if (tok.text === "True" || tok.text === "False") return { type: "Constant", value: py.bool(tok.text === "True") };
    if (tok.text === "None") return { type: "Constant", value: py.none() };
    if (KEYWORDS.has(tok.text)) throw new PySyntaxError("invalid syntax", tok.pos);
    return { type: "Name", id: tok.text };
  }

  private parenthesized(): PyNode {
    if (this.eatOp(")")) return { type: "Tuple", elts: [] };
    const first = this.element();
    if (this.isKeyword("for")) {
      const node: PyNode = { type: "GeneratorExp", elt: first, generators: this.comprehensions() };
      this.expectOp(")");
      return node;
    }
    if (this.eatOp(")")) {
      if (first.type === "Starred") throw this.error("cannot use starred expression here");
      return first;
    }
    const elts = [first];
    this.expectOp(",");
    while (!this.isOp(")")) {
      elts.push(this.element());
      if (!this.eatOp(",")) break;
    }
    this.expectOp(")");
    return { type: "Tuple", elts };
  }

  private listDisplay(): PyNode {
    const elts: PyNode[] = [];
    if (!this.isOp("]")) {
      const first = this.element();
      if (this.isKeyword("for")) {
        const node: PyNode = { type: "ListComp", elt: first, generators: this.comprehensions() };
        this.expectOp("]");
        return node;
      }
      elts.push(first);
      if (!this.eatOp(",")) {
        this.expectOp("]");
        return { type: "List", elts };
      }
    }
    while (!this.isOp("]")) {
      elts.push(this.element());
      if (!this.eatOp(",")) break;
    }
    this.expectOp("]");
    return { type: "List", elts };
  }

  private braceDisplay(): PyNode {
    if (this.eatOp("}")) return { type: "Dict", keys: [], values: [] };
    const first = this.dictOrSetItem();
    if (this.isKeyword("for") && first.key !== null) {
      const generators = this.comprehensions();
      this.expectOp("}");
      return first.key === undefined
        ? { type: "SetComp", elt: first.value, generators }
        : { type: "DictComp", key: first.key, elt: first.value, generators };
    }
    if (first.key === undefined) {
      const elts = [first.value];
      while (this.eatOp(",") && !this.isOp("}")) elts.push(this.element());
      this.expectOp("}");
      return { type: "Set", elts };
    }
    const keys: (PyNode | null)[] = [first.key];
    const values = [first.value];
    while (this.eatOp(",") && !this.isOp("}")) {
      const item = this.dictOrSetItem();
      if (item.key === undefined) throw this.error("':' expected after dictionary key");
      keys.push(item.key);
      values.push(item.value);
    }
    this.expectOp("}");
    return { type: "Dict", keys, values };
  }

  /** A dict entry (`k: v` or `**m`, key null) or a set element (key undefined). */
  private dictOrSetItem(): { key: PyNode | null | undefined; value: PyNode } {
    if (this.eatOp("**")) return { key: null, value: this.binary(0) };
    const first = this.element();
    if (first.type !== "Starred" && first.type !== "NamedExpr" && this.eatOp(":")) {
      return { key: first, value: this.expression() };
    }
    return { key: undefined, value: first };
  }
}

function numberNode(text: string, kind: "int" | "float" | "imag"): PyNode {
  const clean = text.replaceAll("_", "").toLowerCase();
  if (kind === "imag") return { type: "Constant", value: py.opaque("complex", `${clean.slice(0, -1)}j`) };
  if (kind === "float") return { type: "Constant", value: py.float(Number(clean)) };
  const radix = clean.startsWith("0x") ? 16 : clean.startsWith("0o") ? 8 : clean.startsWith("0b") ? 2 : 10;
  const digits = radix === 10 ? clean : clean.slice(2);
  return { type: "Constant", value: py.int(radix === 10 ? Number(digits) : Number.parseInt(digits, radix)) };
}

function stringNode(pieces: readonly StringPiece[], source: string): PyNode {
  if (pieces.some((p) => p.fstring)) return { type: "JoinedStr", source };
  const value = pieces.map((p) => p.value).join("");
  if (pieces[0]?.bytes) return { type: "Constant", value: py.opaque("bytes", bytesRepr(value)) };
  return { type: "Constant", value: py.str(value) };
}

function bytesRepr(value: string): string {
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  let out = "";
  for (const ch of value) {
    const code = ch.charCodeAt(0);
    if (ch === "\\" || ch === quote) out += `\\${ch}`;
    else if (code >= 0x20 && code < 0x7f) out += ch;
    else out += `\\x${(code & 0xff).toString(16).padStart(2, "0")}`;
  }
  return `b${quote}${out}${quote}`;
}
