/**
 * A short string that a dataset's answer regex matches, for answers that come from the gold check
 * (items without tool calls) or whose regex is not matched verbatim in the tool data. Covers the
 * regex syntax answer checks use — literals, escapes, classes, groups, alternation, quantifiers,
 * anchors, lookarounds (skipped) — and verifies the result; undefined when it cannot make one.
 */

export function exampleMatching(source: string): string | undefined {
  let example: string;
  try {
    example = new Generator(source).sequence();
  } catch {
    return undefined; // syntax the generator does not cover
  }
  try {
    return new RegExp(source, "i").test(example) ? example : undefined;
  } catch {
    return undefined; // not a valid regex at all
  }
}

const CLASS_CANDIDATES = [..."abcdefghijklmnopqrstuvwxyz0123456789 -_.,:/#@"];
const ESCAPES: Record<string, string> = {
  d: "1",
  w: "a",
  s: " ",
  D: "a",
  W: " ",
  S: "a",
  n: "\n",
  t: "\t",
  b: "",
  B: "",
};

class Generator {
  private pos = 0;
  constructor(private readonly source: string) {}

  /** A sequence up to `)` or the end; of alternatives `a|b|c` the first is kept and the rest skipped. */
  sequence(): string {
    let out = "";
    while (this.pos < this.source.length) {
      const char = this.source[this.pos];
      if (char === ")") break;
      if (char === "|") {
        this.skipAlternatives();
        break;
      }
      const atom = this.atom();
      out += atom.repeat(this.quantifier());
    }
    return out;
  }

  private atom(): string {
    const char = this.source[this.pos] as string;
    this.pos += 1;
    if (char === "\\") {
      const next = this.source[this.pos] ?? "";
      this.pos += 1;
      if (/\d/.test(next)) return ""; // a back-reference
      return ESCAPES[next] ?? next;
    }
    if (char === "[") return this.characterClass();
    if (char === "(") return this.group();
    if (char === ".") return "a";
    if (char === "^" || char === "$") return "";
    return char;
  }

  private characterClass(): string {
    let end = this.pos;
    while (end < this.source.length && this.source[end] !== "]") end += this.source[end] === "\\" ? 2 : 1;
    const body = this.source.slice(this.pos, end);
    this.pos = end + 1;
    const pattern = new RegExp(`^[${body}]$`, "i");
    const found = CLASS_CANDIDATES.find((candidate) => pattern.test(candidate));
    if (found === undefined) throw new Error(`no example for class [${body}]`);
    return found;
  }

  private group(): string {
    const lookaround = /^\?(?:=|!|<=|<!)/.exec(this.source.slice(this.pos));
    if (lookaround) {
      this.skipToClose();
      return "";
    }
    const prefix = /^\?(?::|<[A-Za-z_]\w*>)/.exec(this.source.slice(this.pos));
    if (prefix) this.pos += prefix[0].length;
    const inner = this.sequence();
    this.pos += 1; // the closing parenthesis
    return inner;
  }

  /** Repetitions to write: the minimum the quantifier allows. */
  private quantifier(): number {
    const rest = this.source.slice(this.pos);
    const simple = /^[?*+]/.exec(rest);
    const counted = /^\{(\d+)(?:,\d*)?\}/.exec(rest);
    let count = 1;
    if (simple) {
      count = simple[0] === "+" ? 1 : 0;
      this.pos += 1;
    } else if (counted) {
      count = Number(counted[1]);
      this.pos += counted[0].length;
    } else return 1;
    if (this.source[this.pos] === "?" || this.source[this.pos] === "+") this.pos += 1;
    return count;
  }

  /** From a `|`: past the other alternatives, stopping before the `)` that closes this level. */
  private skipAlternatives(): void {
    this.skipToClose();
    this.pos -= 1;
  }

  /** Past the `)` that closes the current level (brackets, classes and escapes respected). */
  private skipToClose(): void {
    let depth = 0;
    while (this.pos < this.source.length) {
      const char = this.source[this.pos];
      if (char === "\\") this.pos += 2;
      else if (char === "[") {
        while (this.pos < this.source.length && this.source[this.pos] !== "]") {
          this.pos += this.source[this.pos] === "\\" ? 2 : 1;
        }
        this.pos += 1;
      } else {
        this.pos += 1;
        if (char === "(") depth += 1;
        if (char === ")") {
          if (depth === 0) return;
          depth -= 1;
        }
      }
    }
    this.pos += 1;
  }
}
