/**
 * A recursive-descent arithmetic evaluator shared by builtin `calculator` and lab `calculate` (never eval).
 *
 * Grammar (lowest precedence first):
 *   expression := additive EOF
 *   additive   := term (("+" | "-") term)*
 *   term       := unary (("*" | "/" | "%") unary)*
 *   unary      := ("+" | "-") unary | power
 *   power      := postfix ("^" unary)?           right-associative, binds tighter than unary minus: -2^2 = -4
 *   postfix    := primary "%"?                   percent: a "%" not followed by an operand means /100
 *   primary    := number | constant | function "(" arguments ")" | "(" additive ")"
 */

export type ExpressionErrorCode = "syntax_error" | "unknown_identifier" | "math_error" | "too_long" | "too_deep";

/** Longer inputs are refused before parsing: no real expression comes near it. */
export const MAX_EXPRESSION_CHARS = 10_000;
/** Nesting (parentheses, function calls, signs, exponents) beyond this is refused, not a stack overflow. */
export const MAX_EXPRESSION_DEPTH = 200;

/** A failure to parse or evaluate an expression; `position` is the 0-based character offset, when known. */
export class ExpressionError extends Error {
  readonly code: ExpressionErrorCode;
  readonly position: number | undefined;
  readonly expression: string;
  constructor(code: ExpressionErrorCode, message: string, expression: string, position?: number) {
    super(message);
    this.name = "ExpressionError";
    this.code = code;
    this.expression = expression;
    this.position = position;
  }
}

type TokenKind = "number" | "identifier" | "operator" | "(" | ")" | "," | "end";

interface Token {
  kind: TokenKind;
  text: string;
  position: number;
  value?: number;
}

const CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E, tau: 2 * Math.PI };

interface MathFunction {
  minArgs: number;
  maxArgs: number;
  apply: (args: number[]) => number;
}

const unary = (apply: (x: number) => number): MathFunction => ({
  minArgs: 1,
  maxArgs: 1,
  apply: (args) => apply(args[0]!),
});

const FUNCTIONS: Record<string, MathFunction> = {
  sqrt: unary(Math.sqrt),
  cbrt: unary(Math.cbrt),
  abs: unary(Math.abs),
  floor: unary(Math.floor),
  ceil: unary(Math.ceil),
  exp: unary(Math.exp),
  ln: unary(Math.log),
  log: {
    minArgs: 1,
    maxArgs: 2,
    apply: ([x, base]) => (base === undefined ? Math.log10(x!) : Math.log(x!) / Math.log(base)),
  },
  log2: unary(Math.log2),
  log10: unary(Math.log10),
  sin: unary(Math.sin),
  cos: unary(Math.cos),
  tan: unary(Math.tan),
  asin: unary(Math.asin),
  acos: unary(Math.acos),
  atan: unary(Math.atan),
  round: { minArgs: 1, maxArgs: 2, apply: ([x, digits]) => roundTo(x!, digits ?? 0) },
  pow: { minArgs: 2, maxArgs: 2, apply: ([x, y]) => x! ** y! },
  min: { minArgs: 1, maxArgs: Number.POSITIVE_INFINITY, apply: (args) => Math.min(...args) },
  max: { minArgs: 1, maxArgs: Number.POSITIVE_INFINITY, apply: (args) => Math.max(...args) },
};

/** Names a user may write, for error messages and tool descriptions. */
export const EXPRESSION_FUNCTIONS = Object.keys(FUNCTIONS);
export const EXPRESSION_CONSTANTS = Object.keys(CONSTANTS);

/** Significant digits kept in fractional results, so 0.1 + 0.2 reads 0.3 rather than 0.30000000000000004. */
const RESULT_PRECISION = 15;

function roundTo(x: number, digits: number): number {
  const factor = 10 ** Math.trunc(digits);
  // Round half away from zero, as people (and Python's decimal default) expect from "round".
  return (Math.sign(x) * Math.round(Math.abs(x) * factor)) / factor;
}

const NUMBER = /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const IDENTIFIER = /[A-Za-z_][A-Za-z_0-9]*/y;

/** Sticky regexes match at `i` without copying the rest of the input: linear in its length. */
function matchAt(pattern: RegExp, source: string, i: number): string | undefined {
  pattern.lastIndex = i;
  return pattern.exec(source)?.[0];
}

function tokenize(source: string): Token[] {
  if (source.length > MAX_EXPRESSION_CHARS) {
    throw new ExpressionError(
      "too_long",
      `The expression has ${source.length} characters; at most ${MAX_EXPRESSION_CHARS} are accepted`,
      source,
    );
  }
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const char = source[i]!;
    if (/\s/.test(char)) {
      i += 1;
      continue;
    }
    const number = matchAt(NUMBER, source, i);
    if (number) {
      tokens.push({ kind: "number", text: number, position: i, value: Number(number) });
      i += number.length;
      continue;
    }
    const identifier = matchAt(IDENTIFIER, source, i);
    if (identifier) {
      tokens.push({ kind: "identifier", text: identifier, position: i });
      i += identifier.length;
      continue;
    }
    if (source.startsWith("**", i)) {
      throw new ExpressionError(
        "syntax_error",
        `"**" at position ${i} is not supported; use ^ for powers (e.g. 2^3)`,
        source,
        i,
      );
    }
    if ("+-*/%^".includes(char)) {
      tokens.push({ kind: "operator", text: char, position: i });
    } else if (char === "(" || char === ")" || char === ",") {
      tokens.push({ kind: char, text: char, position: i });
    } else {
      throw new ExpressionError("syntax_error", `Unexpected character "${char}" at position ${i}`, source, i);
    }
    i += 1;
  }
  tokens.push({ kind: "end", text: "end of expression", position: source.length });
  return tokens;
}

class Parser {
  private index = 0;
  private depth = 0;
  constructor(
    private readonly source: string,
    private readonly tokens: Token[],
  ) {}

  parse(): number {
    if (this.peek().kind === "end") throw this.error("syntax_error", "Empty expression");
    const value = this.additive();
    const next = this.peek();
    if (next.kind !== "end") {
      throw this.error("syntax_error", `Unexpected ${describe(next)} at position ${next.position}`, next);
    }
    return value;
  }

  /** Every nesting (parentheses, arguments, signs, exponents) passes through here or unary(). */
  private nested<T>(parse: () => T): T {
    if (++this.depth > MAX_EXPRESSION_DEPTH) {
      throw this.error("too_deep", `The expression nests deeper than ${MAX_EXPRESSION_DEPTH} levels`, this.peek());
    }
    try {
      return parse();
    } finally {
      this.depth -= 1;
    }
  }

  private additive(): number {
    return this.nested(() => this.sum());
  }

  private sum(): number {
    let value = this.term();
    while (this.isOperator("+") || this.isOperator("-")) {
      const operator = this.next().text;
      const right = this.term();
      value = operator === "+" ? value + right : value - right;
    }
    return value;
  }

  private term(): number {
    let value = this.unary();
    while (this.isOperator("*") || this.isOperator("/") || this.isOperator("%")) {
      const operator = this.next();
      const right = this.unary();
      if ((operator.text === "/" || operator.text === "%") && right === 0) {
        throw this.error("math_error", operator.text === "/" ? "Division by zero" : "Modulo by zero", operator);
      }
      if (operator.text === "*") value *= right;
      else if (operator.text === "/") value /= right;
      else value %= right;
    }
    return value;
  }

  private unary(): number {
    return this.nested(() => this.signed());
  }

  private signed(): number {
    if (this.isOperator("-")) {
      this.next();
      return -this.unary();
    }
    if (this.isOperator("+")) {
      this.next();
      return this.unary();
    }
    return this.power();
  }

  private power(): number {
    const base = this.postfix();
    if (!this.isOperator("^")) return base;
    this.next();
    // The exponent is a unary so that 2^-1 works; recursion makes ^ right-associative (2^3^2 = 2^9).
    return base ** this.unary();
  }

  private postfix(): number {
    const value = this.primary();
    // "%" followed by an operand is modulo (handled in term); otherwise it is a percent sign.
    if (this.isOperator("%") && !startsOperand(this.peek(1))) {
      this.next();
      return value / 100;
    }
    return value;
  }

  private primary(): number {
    const token = this.next();
    switch (token.kind) {
      case "number":
        return token.value!;
      case "(": {
        const value = this.additive();
        this.expect(")", `Missing ")" to close "(" at position ${token.position}`);
        return value;
      }
      case "identifier":
        return this.identifier(token);
      case "end":
        throw this.error("syntax_error", "Unexpected end of expression: an operand is missing", token);
      default:
        throw this.error(
          "syntax_error",
          `Unexpected ${describe(token)} at position ${token.position}: expected a number, a function or "("`,
          token,
        );
    }
  }

  private identifier(token: Token): number {
    const name = token.text.toLowerCase();
    const fn = FUNCTIONS[name];
    if (fn) return this.call(name, fn, token);
    const constant = CONSTANTS[name];
    if (constant !== undefined) return constant;
    throw this.error(
      "unknown_identifier",
      `Unknown name "${token.text}" at position ${token.position}; known constants: ${EXPRESSION_CONSTANTS.join(", ")}; ` +
        `functions: ${EXPRESSION_FUNCTIONS.join(", ")}`,
      token,
    );
  }

  private call(name: string, fn: MathFunction, token: Token): number {
    this.expect("(", `Function ${name} at position ${token.position} needs parentheses, e.g. ${name}(2)`);
    const args: number[] = [];
    if (this.peek().kind !== ")") {
      args.push(this.additive());
      while (this.peek().kind === ",") {
        this.next();
        args.push(this.additive());
      }
    }
    this.expect(")", `Missing ")" after the arguments of ${name}`);
    if (args.length < fn.minArgs || args.length > fn.maxArgs) {
      const expected = fn.minArgs === fn.maxArgs ? `${fn.minArgs}` : `${fn.minArgs} to ${fn.maxArgs}`;
      throw this.error(
        "syntax_error",
        `${name} takes ${Number.isFinite(fn.maxArgs) ? expected : `at least ${fn.minArgs}`} argument(s), got ${args.length}`,
        token,
      );
    }
    const value = fn.apply(args);
    if (Number.isNaN(value)) {
      throw this.error("math_error", `${name}(${args.join(", ")}) is not a real number`, token);
    }
    return value;
  }

  private expect(kind: TokenKind, message: string): void {
    const token = this.next();
    if (token.kind !== kind) throw this.error("syntax_error", `${message} (found ${describe(token)})`, token);
  }

  private isOperator(text: string): boolean {
    const token = this.peek();
    return token.kind === "operator" && token.text === text;
  }

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== "end") this.index += 1;
    return token;
  }

  private error(code: ExpressionErrorCode, message: string, token?: Token): ExpressionError {
    return new ExpressionError(code, message, this.source, token?.position);
  }
}

function startsOperand(token: Token): boolean {
  return token.kind === "number" || token.kind === "identifier" || token.kind === "(";
}

function describe(token: Token): string {
  return token.kind === "end" ? "end of expression" : `"${token.text}"`;
}

/**
 * Evaluates an arithmetic expression: + - * / % ^, parentheses, functions (sqrt, sin, log, ln, round …) and
 * constants (pi, e). Throws ExpressionError with a position for syntax errors, unknown names and math errors.
 */
export function evaluateExpression(expression: string): number {
  const value = new Parser(expression, tokenize(expression)).parse();
  if (Number.isNaN(value)) throw new ExpressionError("math_error", "The result is not a real number", expression);
  if (!Number.isFinite(value)) throw new ExpressionError("math_error", "The result is too large", expression);
  return tidyNumber(value);
}

/** Drops binary floating-point noise from a fractional result (integers are kept exact); -0 becomes 0. */
export function tidyNumber(value: number): number {
  const tidy = Number.isInteger(value) ? value : Number(value.toPrecision(RESULT_PRECISION));
  return Object.is(tidy, -0) ? 0 : tidy;
}
