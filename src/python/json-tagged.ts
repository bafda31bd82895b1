/**
 * A JSON parser that keeps what JSON.parse loses: `5` is an int, `5.0` (or `5e0`) a float — as
 * Python's json.loads reads BFCL's possible answers and function-calling arguments. Strict JSON;
 * a syntax error throws `JsonSyntaxError` with the offset.
 */

import { DecodeFailure } from "./errors.ts";
import { fromJson, type PyValue, py } from "./value.ts";

export class JsonSyntaxError extends DecodeFailure {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super("JSON_SYNTAX", `${message} at offset ${offset}`, { context: { offset } });
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

/**
 * What JSON.parse would get wrong: an integral float literal (`5.0`, `1e3`), whose value reads back
 * as an int, and a digits-only key, which a JS object moves ahead of the others. Either may also
 * match inside a string; that only costs the slow path.
 */
const JSON_PARSE_UNSAFE = /\d\.0*(?![0-9])|\d[eE]|"\d+"\s*:/;

export function parseTaggedJson(text: string): PyValue {
  // Fast path: when nothing in the text can be misread, the native parser gives the same values.
  if (!JSON_PARSE_UNSAFE.test(text)) {
    try {
      return fromJson(JSON.parse(text));
    } catch {
      // Not valid JSON: the tagged parser below reports where.
    }
  }
  const parser = new TaggedJsonParser(text);
  const value = parser.value();
  parser.end();
  return value;
}

/** Deepest arrays/objects read (the Python parser's limit too): past it a syntax error, never a RangeError. */
export const MAX_JSON_DEPTH = 200;
/** Keys of one object past which repeated keys are found through a map (a scan per key is quadratic). */
const INDEXED_KEYS = 16;

function keyText(key: PyValue): string | undefined {
  return key.kind === "str" ? key.value : undefined;
}

class TaggedJsonParser {
  private pos = 0;
  private depth = 0;

  constructor(private readonly text: string) {}

  end(): void {
    this.space();
    if (this.pos < this.text.length) throw new JsonSyntaxError("unexpected data after JSON value", this.pos);
  }

  private space(): void {
    let c = this.text.charCodeAt(this.pos);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = this.text.charCodeAt(++this.pos);
  }

  value(): PyValue {
    this.space();
    const ch = this.text[this.pos];
    switch (ch) {
      case "{":
        return this.nested(() => this.object());
      case "[":
        return this.nested(() => this.array());
      case '"':
        return py.str(this.string());
      case "t":
        return this.literal("true", py.bool(true));
      case "f":
        return this.literal("false", py.bool(false));
      case "n":
        return this.literal("null", py.none());
      default:
        return this.number();
    }
  }

  private literal(word: string, value: PyValue): PyValue {
    if (!this.text.startsWith(word, this.pos)) throw new JsonSyntaxError("unexpected token", this.pos);
    this.pos += word.length;
    return value;
  }

  private number(): PyValue {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text);
    if (!match) throw new JsonSyntaxError("unexpected token", this.pos);
    this.pos += match[0].length;
    const value = Number(match[0]);
    return match[1] !== undefined || match[2] !== undefined ? py.float(value) : py.int(value);
  }

  private string(): string {
    const start = this.pos;
    let escaped = false;
    for (let i = start + 1; i < this.text.length; i++) {
      const c = this.text.charCodeAt(i);
      if (c === 92) {
        escaped = true;
        i++;
      } else if (c === 34) {
        this.pos = i + 1;
        const body = this.text.slice(start, this.pos);
        if (!escaped) return body.slice(1, -1);
        try {
          return JSON.parse(body) as string;
        } catch {
          throw new JsonSyntaxError("bad escape in string", start);
        }
      } else if (c < 32) {
        throw new JsonSyntaxError("control character in string", i);
      }
    }
    throw new JsonSyntaxError("unterminated string", start);
  }

  private expect(ch: string): void {
    this.space();
    if (this.text[this.pos] !== ch) throw new JsonSyntaxError(`expected '${ch}'`, this.pos);
    this.pos++;
  }

  /** Whether the next non-space character is `ch`; consumes it when it is. */
  private eat(ch: string): boolean {
    this.space();
    if (this.text[this.pos] !== ch) return false;
    this.pos++;
    return true;
  }

  private nested(read: () => PyValue): PyValue {
    if (this.depth >= MAX_JSON_DEPTH)
      throw new JsonSyntaxError(`nested deeper than ${MAX_JSON_DEPTH} levels`, this.pos);
    this.depth++;
    const value = read();
    this.depth--;
    return value;
  }

  private array(): PyValue {
    this.pos++;
    const items: PyValue[] = [];
    if (this.eat("]")) return py.list(items);
    do items.push(this.value());
    while (this.eat(","));
    this.expect("]");
    return py.list(items);
  }

  private object(): PyValue {
    this.pos++;
    const entries: [PyValue, PyValue][] = [];
    // key → its place in `entries`, built once the object has INDEXED_KEYS keys
    let places: Map<string | undefined, number> | undefined;
    if (this.eat("}")) return py.dict(entries);
    do {
      this.space();
      if (this.text[this.pos] !== '"') throw new JsonSyntaxError("expected a string key", this.pos);
      const name = this.string();
      const key = py.str(name);
      this.expect(":");
      const value = this.value();
      // Like json.loads: a repeated key keeps its first position and takes the last value.
      if (!places && entries.length >= INDEXED_KEYS) places = new Map(entries.map(([k], at) => [keyText(k), at]));
      const existing = places ? (places.get(name) ?? -1) : entries.findIndex(([k]) => keyText(k) === name);
      if (existing >= 0) entries[existing] = [key, value];
      else {
        entries.push([key, value]);
        places?.set(name, entries.length - 1);
      }
    } while (this.eat(","));
    this.expect("}");
    return py.dict(entries);
  }
}
