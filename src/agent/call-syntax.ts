/**
 * A tolerant reader for call syntax as small models write it: `tool(a="x", 'y', n=3, flag=True,
 * items=[1, 2], opts={"k": 'v'}, id=#E1.items[0].id)`. It never throws; whatever it cannot read it
 * reports in `problems` and skips.
 */

import { MAX_NESTING_DEPTH } from "../nesting.ts";

export interface ParsedCall {
  named: Record<string, unknown>;
  positional: unknown[];
  problems: string[];
  /** Index just after the closing parenthesis (or the end of the text when it never closed). */
  end: number;
  closed: boolean;
}

/** `#E1`, `#E2.items[0].id`, `#E3["key"]`: a reference to an earlier step's result. */
export const REFERENCE_SOURCE = String.raw`#E(\d+)((?:\.[A-Za-z_][\w-]*|\.\d+|\[\d+\]|\[["'][^"'\]]*["']\])*)`;

const IDENTIFIER = /[A-Za-z_][\w.-]*/y;
// `\d+(?:\.\d*)?`, not `\d+\.?\d*`: two digit runs side by side re-split a long run at every backtrack (quadratic).
const NUMBER = /-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?(?![\w.])/y;
const REFERENCE = new RegExp(REFERENCE_SOURCE, "y");
const KEYWORDS: Record<string, unknown> = {
  true: true,
  false: false,
  True: true,
  False: false,
  null: null,
  None: null,
  undefined: null,
};
const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", "0": "\0" };

class Scanner {
  pos: number;
  readonly problems: string[] = [];
  constructor(
    readonly text: string,
    start: number,
  ) {
    this.pos = start;
  }

  peek(): string {
    return this.text[this.pos] ?? "";
  }

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  skipSpace(): void {
    while (!this.atEnd() && /\s/.test(this.peek())) this.pos += 1;
  }

  match(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.pos;
    const found = pattern.exec(this.text);
    if (!found) return undefined;
    this.pos += found[0].length;
    return found[0];
  }

  /** Moves to the next `,` or one of `closers` at nesting depth 0, skipping over strings and brackets. */
  recover(closers: string): void {
    let depth = 0;
    while (!this.atEnd()) {
      const char = this.peek();
      if (char === '"' || char === "'") {
        this.readString();
        continue;
      }
      if (depth === 0 && (char === "," || closers.includes(char))) return;
      if ("([{".includes(char)) depth += 1;
      if (")]}".includes(char)) depth -= 1;
      this.pos += 1;
    }
  }

  readString(): string {
    const quote = this.peek();
    this.pos += 1;
    let out = "";
    while (!this.atEnd()) {
      const char = this.peek();
      if (char === quote) {
        this.pos += 1;
        return out;
      }
      if (char === "\\") {
        const next = this.text[this.pos + 1] ?? "";
        if (next === "u" && /^[0-9a-fA-F]{4}$/.test(this.text.slice(this.pos + 2, this.pos + 6))) {
          out += String.fromCharCode(Number.parseInt(this.text.slice(this.pos + 2, this.pos + 6), 16));
          this.pos += 6;
          continue;
        }
        out += ESCAPES[next] ?? next;
        this.pos = Math.min(this.pos + 2, this.text.length);
        continue;
      }
      out += char;
      this.pos += 1;
    }
    this.problems.push(`unterminated string starting ${JSON.stringify(out.slice(0, 20))}`);
    return out;
  }

  readValue(closers: string, depth = 0): unknown {
    this.skipSpace();
    const char = this.peek();
    if (depth > MAX_NESTING_DEPTH) {
      this.problems.push("nesting too deep");
      this.recover(closers);
      return null;
    }
    if (char === '"' || char === "'") return this.readString();
    if (char === "[") return this.readArray(depth, "]");
    // a Python tuple, `(1.5, 2.5)`: read as a list (JSON has no tuples)
    if (char === "(") return this.readArray(depth, ")");
    if (char === "{") return this.readObject(depth);
    const reference = this.match(REFERENCE);
    if (reference !== undefined) return reference;
    const number = this.match(NUMBER);
    if (number !== undefined) return Number(number);
    return this.readBare(closers);
  }

  /** An unquoted word or phrase: a keyword (true, None …) or a string up to the next separator. */
  private readBare(closers: string): unknown {
    const start = this.pos;
    this.recover(closers);
    const word = this.text.slice(start, this.pos).trim();
    if (word in KEYWORDS) return KEYWORDS[word];
    if (word === "") this.problems.push(`empty value at ${start}`);
    return word;
  }

  private readArray(depth: number, close: "]" | ")"): unknown[] {
    this.pos += 1;
    const items: unknown[] = [];
    const kind = close === "]" ? "array" : "tuple";
    for (;;) {
      this.skipSpace();
      if (this.atEnd()) {
        this.problems.push(`unterminated ${kind}`);
        return items;
      }
      if (this.peek() === close) {
        this.pos += 1;
        return items;
      }
      items.push(this.readValue(close, depth + 1));
      this.skipSpace();
      if (this.peek() === ",") this.pos += 1;
      else if (this.peek() !== close && !this.atEnd()) {
        this.problems.push(`unexpected ${JSON.stringify(this.peek())} in ${kind}`);
        this.recover(close);
        if (this.peek() === ",") this.pos += 1;
      }
    }
  }

  private readObject(depth: number): Record<string, unknown> {
    this.pos += 1;
    const out: Record<string, unknown> = {};
    for (;;) {
      this.skipSpace();
      if (this.atEnd()) {
        this.problems.push("unterminated object");
        return out;
      }
      if (this.peek() === "}") {
        this.pos += 1;
        return out;
      }
      const key = this.peek() === '"' || this.peek() === "'" ? this.readString() : this.match(IDENTIFIER);
      this.skipSpace();
      if (key === undefined || !(this.peek() === ":" || this.peek() === "=")) {
        this.problems.push(`expected a key at ${this.pos}`);
        this.recover("}");
        if (this.peek() === ",") this.pos += 1;
        continue;
      }
      this.pos += 1;
      setOwn(out, key, this.readValue("}", depth + 1));
      this.skipSpace();
      if (this.peek() === ",") this.pos += 1;
      else if (this.peek() !== "}" && !this.atEnd()) {
        this.problems.push(`unexpected ${JSON.stringify(this.peek())} in object`);
        this.recover("}");
        if (this.peek() === ",") this.pos += 1;
      }
    }
  }
}

/** Reads the arguments of a call; `openParen` is the index of its `(`. */
export function parseCallArguments(text: string, openParen: number): ParsedCall {
  const scanner = new Scanner(text, openParen + 1);
  const named: Record<string, unknown> = {};
  const positional: unknown[] = [];
  for (;;) {
    scanner.skipSpace();
    if (scanner.atEnd()) {
      scanner.problems.push("call is not closed with )");
      return { named, positional, problems: scanner.problems, end: scanner.pos, closed: false };
    }
    if (scanner.peek() === ")") {
      scanner.pos += 1;
      return { named, positional, problems: scanner.problems, end: scanner.pos, closed: true };
    }
    const name = readArgumentName(scanner);
    if (name !== undefined) setOwn(named, name, scanner.readValue(")"));
    else positional.push(scanner.readValue(")"));
    scanner.skipSpace();
    if (scanner.peek() === ",") scanner.pos += 1;
    else if (scanner.peek() !== ")" && !scanner.atEnd()) {
      scanner.problems.push(`unexpected ${JSON.stringify(scanner.peek())} after an argument`);
      scanner.recover(")");
      if (scanner.peek() === ",") scanner.pos += 1;
    }
  }
}

/** `name=` / `name:` / `"name":` before a value; leaves the scanner untouched when there is none. */
function readArgumentName(scanner: Scanner): string | undefined {
  const start = scanner.pos;
  const quoted = scanner.peek() === '"' || scanner.peek() === "'";
  const name = quoted ? scanner.readString() : scanner.match(IDENTIFIER);
  scanner.skipSpace();
  const separator = scanner.peek();
  const next = scanner.text[scanner.pos + 1];
  if (name && (separator === ":" || (separator === "=" && next !== "="))) {
    scanner.pos += 1;
    return name;
  }
  scanner.pos = start;
  return undefined;
}

/** Reads one value (JSON-ish, Python-ish or a bare word) that fills the whole text. */
export function parseLooseValue(text: string): { value: unknown; problems: string[] } {
  const scanner = new Scanner(text, 0);
  const value = scanner.readValue("");
  scanner.skipSpace();
  if (!scanner.atEnd())
    scanner.problems.push(`trailing text ${JSON.stringify(text.slice(scanner.pos, scanner.pos + 20))}`);
  return { value, problems: scanner.problems };
}

/** Sets a key as an own property, so a model writing `__proto__=…` cannot reach the prototype. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
