/**
 * A tokenizer for the Python expression subset BFCL decodes (as `ast.parse(src, mode="eval")` sees it):
 * names, numbers (int/float/imaginary kept apart), strings with prefixes, escapes, triple quotes and
 * implicit concatenation, operators, bracket matching, comments, line continuation, and the rule that
 * a newline outside brackets ends the expression. Errors are returned as `PySyntaxError`, never thrown
 * past `tokenize`.
 */

import { DecodeFailure } from "./errors.ts";

/** One token. Every token has the same fields (one object shape keeps the parser's accesses fast). */
export interface Token {
  readonly type: "name" | "number" | "string" | "op" | "newline" | "end";
  readonly text: string;
  readonly pos: number;
  /** For numbers. */
  readonly numberKind: "int" | "float" | "imag" | undefined;
  /** For strings: the implicitly concatenated literals. */
  readonly pieces: readonly StringPiece[] | undefined;
}

function token(type: Token["type"], text: string, pos: number, extra?: Partial<Token>): Token {
  return { type, text, pos, numberKind: extra?.numberKind, pieces: extra?.pieces };
}

/** One literal of an implicitly concatenated string. */
export interface StringPiece {
  readonly value: string;
  readonly bytes: boolean;
  readonly fstring: boolean;
  readonly prefix: string;
}

/** Python would raise SyntaxError here; `pos` is the offset in the source. */
export class PySyntaxError extends DecodeFailure {
  constructor(
    message: string,
    readonly pos: number,
  ) {
    super("PY_SYNTAX", message, { context: { pos } });
  }
}

// Longest first: the tokenizer takes the first operator the source starts with.
const OPERATORS = [
  "**=",
  "//=",
  ">>=",
  "<<=",
  "...",
  "->",
  ":=",
  "**",
  "//",
  "<<",
  ">>",
  "<=",
  ">=",
  "==",
  "!=",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  "&=",
  "|=",
  "^=",
  "@=",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ",",
  ":",
  ";",
  ".",
  "=",
  "+",
  "-",
  "*",
  "/",
  "%",
  "@",
  "|",
  "&",
  "^",
  "~",
  "<",
  ">",
];
const OPERATORS_BY_CHAR = new Map<string, string[]>();
for (const op of OPERATORS) OPERATORS_BY_CHAR.set(op[0]!, [...(OPERATORS_BY_CHAR.get(op[0]!) ?? []), op]);
const CLOSERS: Readonly<Record<string, string>> = { ")": "(", "]": "[", "}": "{" };
/** CPython's tokenizer limit (MAXLEVEL): a deeper text fails where it gets too deep, not after reading it all. */
const MAX_BRACKETS = 200;
/** One-character operators that start no longer operator: nothing more to look for (brackets and commas are most of what is read). */
const SINGLE_CHAR_OPERATORS: ReadonlySet<string> = new Set(
  OPERATORS.filter((op) => op.length === 1 && OPERATORS_BY_CHAR.get(op)!.length === 1),
);

const NAME_START = /[\p{L}\p{Nl}_]/u;
const NAME_CHAR = /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}_]/u;
const STRING_PREFIX = /^(?:[rRuUbBfF]|[bB][rR]|[rR][bB]|[fF][rR]|[rR][fF])$/;
const DIGITS = "[0-9](?:_?[0-9])*";
const NUMBER_RE = new RegExp(
  [
    "0[xX](?:_?[0-9a-fA-F])+",
    "0[oO](?:_?[0-7])+",
    "0[bB](?:_?[01])+",
    `(?:${DIGITS})?\\.${DIGITS}(?:[eE][+-]?${DIGITS})?[jJ]?`,
    `${DIGITS}\\.(?:[eE][+-]?${DIGITS})?[jJ]?`,
    `${DIGITS}(?:[eE][+-]?${DIGITS})?[jJ]?`,
  ]
    .map((p) => `(?:${p})`)
    .join("|"),
  "y",
);
// Python accepts a keyword glued to a number (`1if x else 2`), with a warning.
const KEYWORD_AFTER_NUMBER = /^(?:and|else|for|if|in|is|not|or)(?![\p{L}\p{Nd}_])/u;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

/** r, u, b, f in either case: a letter that may start a string prefix. */
function isStringPrefixChar(ch: string | undefined): boolean {
  switch (ch) {
    case "r":
    case "R":
    case "u":
    case "U":
    case "b":
    case "B":
    case "f":
    case "F":
      return true;
    default:
      return false;
  }
}

// ASCII fast paths first: the Unicode-class regexes are only needed beyond U+007F.
function isNameStart(ch: string): boolean {
  const c = ch.charCodeAt(0);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
  return NAME_START.test(ch);
}
function isNameChar(ch: string): boolean {
  const c = ch.charCodeAt(0);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || (c >= 48 && c <= 57);
  return NAME_CHAR.test(ch);
}

export function tokenize(src: string): Token[] {
  return new Tokenizer(src).run();
}

class Tokenizer {
  private pos = 0;
  private readonly tokens: Token[] = [];
  private readonly brackets: Array<{ ch: string; pos: number }> = [];
  private atLineStart = true;

  constructor(private readonly src: string) {}

  run(): Token[] {
    const src = this.src;
    while (this.pos < src.length) {
      const ch = src[this.pos]!;
      if (this.atLineStart && this.brackets.length === 0) {
        if (this.skipBlankLine()) continue;
        this.atLineStart = false;
        if (ch === " " || ch === "\t" || ch === "\f") throw new PySyntaxError("unexpected indent", this.pos);
      }
      if (ch === " " || ch === "\t" || ch === "\f") this.pos++;
      else if (ch === "#") this.skipComment();
      else if (ch === "\n" || ch === "\r") this.newline();
      else if (ch === "\\") this.continuation();
      else if (ch === "'" || ch === '"' || (isStringPrefixChar(ch) && this.startsString())) this.readStrings();
      else if (isDigit(ch) || (ch === "." && isDigit(src[this.pos + 1] ?? ""))) this.readNumber();
      else if (isNameStart(ch)) this.readName();
      else this.readOperator();
    }
    if (this.brackets.length > 0) {
      const open = this.brackets[this.brackets.length - 1]!;
      throw new PySyntaxError(`'${open.ch}' was never closed`, open.pos);
    }
    this.tokens.push(token("end", "", this.pos));
    return this.tokens;
  }

  /** At a line start outside brackets: skips a whitespace- or comment-only line, if this is one. */
  private skipBlankLine(): boolean {
    let p = this.pos;
    while (p < this.src.length && " \t\f".includes(this.src[p]!)) p++;
    const ch = this.src[p];
    if (ch === undefined) {
      this.pos = p;
      return true;
    }
    if (ch === "#") {
      this.pos = p;
      this.skipComment();
      return true;
    }
    if (ch === "\n" || ch === "\r") {
      this.pos = p + (ch === "\r" && this.src[p + 1] === "\n" ? 2 : 1);
      return true;
    }
    return false;
  }

  private skipComment(): void {
    while (this.pos < this.src.length && this.src[this.pos] !== "\n" && this.src[this.pos] !== "\r") this.pos++;
  }

  private newline(): void {
    const start = this.pos;
    this.pos += this.src[this.pos] === "\r" && this.src[this.pos + 1] === "\n" ? 2 : 1;
    if (this.brackets.length > 0) return;
    this.tokens.push(token("newline", "", start));
    this.atLineStart = true;
  }

  private continuation(): void {
    const next = this.src[this.pos + 1];
    if (next === "\n" || next === "\r") {
      this.pos += next === "\r" && this.src[this.pos + 2] === "\n" ? 3 : 2;
      return;
    }
    throw new PySyntaxError("unexpected character after line continuation character", this.pos);
  }

  private startsString(): boolean {
    let p = this.pos;
    while (p < this.src.length && p - this.pos < 2 && isStringPrefixChar(this.src[p])) p++;
    for (let end = p; end >= this.pos; end--) {
      const q = this.src[end];
      if ((q === "'" || q === '"') && (end === this.pos || STRING_PREFIX.test(this.src.slice(this.pos, end)))) {
        return true;
      }
    }
    return false;
  }

  /** Reads one string literal and any literals adjacent to it (implicit concatenation). */
  private readStrings(): void {
    const start = this.pos;
    const pieces: StringPiece[] = [];
    do {
      pieces.push(this.readString());
      this.skipInlineSpace();
    } while (this.pos < this.src.length && this.startsString());
    const bytes = pieces.map((p) => p.bytes);
    if (bytes.includes(true) && bytes.includes(false)) {
      throw new PySyntaxError("cannot mix bytes and nonbytes literals", start);
    }
    this.tokens.push(token("string", this.src.slice(start, this.pos).trimEnd(), start, { pieces }));
  }

  /** Spaces, comments, continuations and (inside brackets) newlines between concatenated strings. */
  private skipInlineSpace(): void {
    for (;;) {
      const ch = this.src[this.pos];
      if (ch === " " || ch === "\t" || ch === "\f") this.pos++;
      else if (ch === "\\" && (this.src[this.pos + 1] === "\n" || this.src[this.pos + 1] === "\r")) this.continuation();
      else if ((ch === "\n" || ch === "\r") && this.brackets.length > 0) this.pos++;
      else if (ch === "#" && this.brackets.length > 0) this.skipComment();
      else return;
    }
  }

  private readString(): StringPiece {
    const start = this.pos;
    let prefix = "";
    while (this.src[this.pos] !== "'" && this.src[this.pos] !== '"') prefix += this.src[this.pos++];
    const lower = prefix.toLowerCase();
    const raw = lower.includes("r");
    const bytes = lower.includes("b");
    const quoteChar = this.src[this.pos]!;
    const triple = this.src.startsWith(quoteChar.repeat(3), this.pos);
    const quote = triple ? quoteChar.repeat(3) : quoteChar;
    this.pos += quote.length;
    let value = "";
    for (;;) {
      const run = this.plainRun(quoteChar);
      if (run > this.pos) {
        value += this.src.slice(this.pos, run);
        this.pos = run;
      }
      if (this.pos >= this.src.length) {
        const what = triple ? "unterminated triple-quoted string literal" : "unterminated string literal";
        throw new PySyntaxError(what, start);
      }
      if (this.src.startsWith(quote, this.pos)) {
        this.pos += quote.length;
        break;
      }
      const ch = this.src[this.pos]!;
      if (!triple && (ch === "\n" || ch === "\r")) throw new PySyntaxError("unterminated string literal", start);
      if (ch === "\\") {
        value += raw ? this.rawEscape() : this.escape(bytes);
        continue;
      }
      value += ch;
      this.pos++;
    }
    return { value, bytes, fstring: lower.includes("f"), prefix };
  }

  /** The end of a run of characters that need no attention inside a string (no quote, backslash, newline). */
  private plainRun(quoteChar: string): number {
    const quote = quoteChar.charCodeAt(0);
    let p = this.pos;
    for (;;) {
      const c = this.src.charCodeAt(p);
      if (Number.isNaN(c) || c === quote || c === 92 || c === 10 || c === 13) return p;
      p++;
    }
  }

  /** In a raw string a backslash stays, but still keeps the next character from ending the string. */
  private rawEscape(): string {
    const pair = this.src.slice(this.pos, this.pos + 2);
    this.pos += pair.length;
    return pair;
  }

  private escape(bytes: boolean): string {
    const start = this.pos;
    const next = this.src[this.pos + 1];
    this.pos += 2;
    if (next === undefined) throw new PySyntaxError("unterminated string literal", start);
    if (next === "\n") return "";
    if (next === "\r") {
      if (this.src[this.pos] === "\n") this.pos++;
      return "";
    }
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) return simple;
    if (/[0-7]/.test(next)) {
      let digits = next;
      while (digits.length < 3 && /[0-7]/.test(this.src[this.pos] ?? "")) digits += this.src[this.pos++];
      return String.fromCodePoint(Number.parseInt(digits, 8));
    }
    const hexLength = next === "x" ? 2 : !bytes && next === "u" ? 4 : !bytes && next === "U" ? 8 : 0;
    if (hexLength > 0) {
      const hex = this.src.slice(this.pos, this.pos + hexLength);
      const code = Number.parseInt(hex, 16);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length < hexLength || code > 0x10ffff) {
        throw new PySyntaxError(`(unicode error) truncated \\${next} escape`, start);
      }
      this.pos += hexLength;
      return String.fromCodePoint(code);
    }
    if (!bytes && next === "N") throw new PySyntaxError("\\N{...} escapes are not supported", start);
    // Unknown escapes keep the backslash (Python warns but accepts them).
    return `\\${next}`;
  }

  private readNumber(): void {
    NUMBER_RE.lastIndex = this.pos;
    const match = NUMBER_RE.exec(this.src);
    const text = match?.[0] ?? "";
    const start = this.pos;
    this.pos += text.length;
    const rest = this.src.slice(this.pos, this.pos + 8);
    if (isNameChar(rest[0] ?? "") && !KEYWORD_AFTER_NUMBER.test(rest)) {
      throw new PySyntaxError("invalid decimal literal", start);
    }
    const lower = text.toLowerCase();
    const isPrefixed = /^0[xob]/.test(lower);
    const numberKind = lower.endsWith("j") ? "imag" : !isPrefixed && /[.e]/.test(lower) ? "float" : "int";
    if (numberKind === "int" && !isPrefixed && /^0[0_]*[1-9]/.test(text)) {
      throw new PySyntaxError("leading zeros in decimal integer literals are not permitted", start);
    }
    this.tokens.push(token("number", text, start, { numberKind }));
  }

  private readName(): void {
    const src = this.src;
    const start = this.pos;
    let p = start;
    // Char codes, not one-character strings: names are most of what the tokenizer reads.
    for (;;) {
      const c = src.charCodeAt(p);
      if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || (c >= 48 && c <= 57)) p++;
      else if (c >= 128 && isNameChar(src[p]!)) p++;
      else break;
    }
    this.pos = p;
    this.tokens.push(token("name", src.slice(start, p), start));
  }

  private readOperator(): void {
    const start = this.pos;
    let op: string | undefined = SINGLE_CHAR_OPERATORS.has(this.src[start]!) ? this.src[start] : undefined;
    for (const candidate of op === undefined ? (OPERATORS_BY_CHAR.get(this.src[start]!) ?? []) : []) {
      if (this.src.startsWith(candidate, start)) {
        op = candidate;
        break;
      }
    }
    if (op === undefined) {
      const ch = String.fromCodePoint(this.src.codePointAt(this.pos)!);
      const hex = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
      throw new PySyntaxError(
        ch.charCodeAt(0) < 128 ? "invalid syntax" : `invalid character '${ch}' (U+${hex})`,
        start,
      );
    }
    this.pos += op.length;
    if (op === "(" || op === "[" || op === "{") {
      if (this.brackets.length >= MAX_BRACKETS) throw new PySyntaxError("too many nested parentheses", start);
      this.brackets.push({ ch: op, pos: start });
    }
    const opener = CLOSERS[op];
    if (opener !== undefined) {
      const open = this.brackets.pop();
      if (open === undefined) throw new PySyntaxError(`unmatched '${op}'`, start);
      if (open.ch !== opener) {
        throw new PySyntaxError(`closing parenthesis '${op}' does not match opening parenthesis '${open.ch}'`, start);
      }
    }
    this.tokens.push(token("op", op, start));
  }
}

function isDigit(ch: string): boolean {
  return ch >= "0" && ch <= "9";
}
