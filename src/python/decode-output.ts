/**
 * Decodes a recorded model output into calls. Never throws: an undecodable output is
 * `{ ok: false, reason }`.
 *
 * - A string is BFCL prompt-mode output in Python call syntax, decoded exactly as BFCL does: trim
 *   backticks/newlines/spaces, add the missing `[` / `]`, trim `[`, `]` and `'` from both ends, parse
 *   what is left as one Python expression (a call, or a tuple/list of calls).
 * - An array or object (a function-calling result) is a list of `{name: {args}}`,
 *   `{name, arguments}` or `{function: {name, arguments}}`, arguments as an object or a JSON string.
 * - `lenient: true` (not BFCL: for replaying outputs through the project's own pipeline) also accepts
 *   a JSON string of those forms and calls wrapped in stray text or code fences.
 */

import { textDepth, tooDeep } from "../nesting.ts";
import { PyEvalError } from "./evaluate.ts";
import { JsonSyntaxError, MAX_JSON_DEPTH, parseTaggedJson } from "./json-tagged.ts";
import { parseExpression } from "./parser.ts";
import { type DecodedCall, resolveCalls } from "./resolve.ts";
import { PySyntaxError } from "./tokenizer.ts";
import { dictField, type PyValue } from "./value.ts";

export type { DecodedCall } from "./resolve.ts";

export type DecodeResult =
  | { readonly ok: true; readonly calls: readonly DecodedCall[]; readonly format: "python" | "json" }
  | { readonly ok: false; readonly reason: string };

export interface DecodeOptions {
  readonly lenient?: boolean;
}

export function decodeOutput(output: unknown, options: DecodeOptions = {}): DecodeResult {
  try {
    if (typeof output === "string") return options.lenient ? decodeLenient(output) : decodePromptOutput(output);
    return decodeFunctionCalls(output);
  } catch (error) {
    // Every failure below is a reason to report, never a crash (the property test holds us to it).
    return { ok: false, reason: `decoder error: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function trimChars(s: string, chars: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && chars.includes(s[start]!)) start++;
  while (end > start && chars.includes(s[end - 1]!)) end--;
  return s.slice(start, end);
}

/** BFCL's default_decode_ast_prompting + ast_parse. */
export function decodePromptOutput(raw: string): DecodeResult {
  let text = trimChars(raw, "`\n ");
  if (!text.startsWith("[")) text = `[${text}`;
  if (!text.endsWith("]")) text = `${text}]`;
  return decodePython(trimChars(text, "[]'"));
}

function decodePython(src: string): DecodeResult {
  try {
    return { ok: true, calls: resolveCalls(parseExpression(src)), format: "python" };
  } catch (error) {
    if (error instanceof PySyntaxError)
      return { ok: false, reason: `${error.message} (line ${lineOf(src, error.pos)})` };
    if (error instanceof PyEvalError) return { ok: false, reason: error.message };
    throw error;
  }
}

function lineOf(src: string, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos && i < src.length; i++) if (src[i] === "\n") line++;
  return line;
}

// ─── function-calling forms ─────────────────────────────────────────────────────────────────────

/** A PyValue (from the tagged JSON parser) or plain JSON, as a list of function-calling entries. */
function decodeFunctionCalls(output: unknown): DecodeResult {
  // printing a deeper value for the tagged parser would overflow the stack
  if (!isPyValue(output) && tooDeep(output, MAX_JSON_DEPTH)) {
    return { ok: false, reason: `output nested deeper than ${MAX_JSON_DEPTH} levels` };
  }
  const value = isPyValue(output) ? output : fromPlain(output);
  const entries = value.kind === "list" ? value.items : [value];
  const calls: DecodedCall[] = [];
  for (const entry of entries) {
    const call = functionCallOf(entry);
    if (typeof call === "string") return { ok: false, reason: call };
    calls.push(call);
  }
  return { ok: true, calls, format: "json" };
}

function isPyValue(v: unknown): v is PyValue {
  return typeof v === "object" && v !== null && "kind" in v && typeof (v as { kind: unknown }).kind === "string";
}

function fromPlain(v: unknown): PyValue {
  // Plain JSON lost int vs float already; round-trip through text keeps what is left.
  return parseTaggedJson(JSON.stringify(v) ?? "null");
}

/** One entry → a call, or the reason it is not one. */
function functionCallOf(entry: PyValue): DecodedCall | string {
  if (entry.kind !== "dict") return `expected a function call object, got ${entry.kind}`;
  const wrapped = dictField(entry, "function");
  if (wrapped?.kind === "dict" && dictField(wrapped, "name")) return functionCallOf(wrapped);
  const name = dictField(entry, "name");
  const named = dictField(entry, "arguments") ?? dictField(entry, "parameters");
  if (name?.kind === "str" && named !== undefined) return withArguments(name.value, named);
  if (entry.entries.length === 1) {
    const [key, args] = entry.entries[0]!;
    if (key.kind === "str") return withArguments(key.value, args);
  }
  return "expected {name: {args}} or {name, arguments}";
}

function withArguments(name: string, raw: PyValue): DecodedCall | string {
  let args = raw;
  if (raw.kind === "str") {
    try {
      args = parseTaggedJson(raw.value);
    } catch (error) {
      if (error instanceof JsonSyntaxError) return `arguments of ${name} are not valid JSON: ${error.message}`;
      throw error;
    }
  }
  if (args.kind !== "dict") return `arguments of ${name} are not an object`;
  const map = new Map<string, PyValue>();
  for (const [k, v] of args.entries) {
    if (k.kind !== "str") return `argument names of ${name} must be strings`;
    map.set(k.value, v);
  }
  return { name, args: map };
}

// ─── lenient decoding (not BFCL) ────────────────────────────────────────────────────────────────

const MAX_CANDIDATES = 64;
const FENCE = /```[\w-]*\n?([\s\S]*?)```/g;
// Tried only where a word starts (the name begins at its first letter): every position of a long word was quadratic.
const CALL_START = /(?<![\w.])[\d.]*([A-Za-z_][\w.]*)\s*\(/g;

/**
 * Candidates are tried in order until their total length reaches this many times the text's: nested spans
 * of a long output would otherwise each be parsed whole (quadratic), and an ordinary output never gets near.
 */
const CANDIDATE_BUDGET = 4;

function decodeLenient(text: string): DecodeResult {
  const strict = decodePromptOutput(text);
  if (strict.ok) return strict;
  let budget = CANDIDATE_BUDGET * text.length;
  for (const candidate of lenientCandidates(text)) {
    budget -= candidate.length;
    if (budget < 0) break;
    // deeper than either parser reads: reading it whole only to fail is what made nested outputs slow
    if (textDepth(candidate) > MAX_JSON_DEPTH) continue;
    const json = tryJson(candidate);
    if (json?.ok && json.calls.length > 0) return json;
    const python = decodePromptOutput(candidate);
    if (python.ok && python.calls.length > 0) return python;
  }
  return strict;
}

function tryJson(candidate: string): DecodeResult | undefined {
  const trimmed = candidate.trim();
  if (!trimmed.startsWith("[") && !trimmed.startsWith("{")) return undefined;
  try {
    return decodeFunctionCalls(parseTaggedJson(trimmed));
  } catch (error) {
    if (error instanceof JsonSyntaxError) return undefined;
    throw error;
  }
}

/** Code-fence bodies, balanced `[...]` / `{...}` spans, then runs of `name(...)` calls. */
function lenientCandidates(text: string): string[] {
  const out: string[] = [];
  const ends = new BracketEnds(text);
  for (const m of text.matchAll(FENCE)) out.push(m[1]!);
  for (let i = 0; i < text.length && out.length < MAX_CANDIDATES; i++) {
    if (text[i] === "[" || text[i] === "{") {
      const end = ends.after(i);
      if (end > i) out.push(text.slice(i, end));
    }
  }
  const calls: string[] = [];
  let lastEnd = 0;
  for (const m of text.matchAll(CALL_START)) {
    const start = m.index + m[0].indexOf(m[1]!);
    const open = m.index + m[0].length - 1;
    const end = ends.after(open);
    if (end <= open) continue;
    // a call inside the previous one is part of its text (checked by position: the text search is slow)
    const inside = end <= lastEnd;
    lastEnd = Math.max(lastEnd, end);
    if (!inside && !calls.some((c) => c.includes(text.slice(start, end)))) calls.push(text.slice(start, end));
    if (calls.length >= MAX_CANDIDATES) break;
  }
  if (calls.length > 0) out.push(calls.join(", "));
  return out;
}

const PAIRS: Readonly<Record<string, string>> = { "(": ")", "[": "]", "{": "}" };

/**
 * For each bracket, the index just past the one matching it, skipping quoted text; -1 if none. One scan
 * from a bracket also settles every bracket opened inside it (their scans would read the same characters),
 * so asking about every bracket of a text reads it about once, not once per bracket.
 */
export class BracketEnds {
  private readonly known = new Map<number, number>();

  constructor(private readonly text: string) {}

  after(start: number): number {
    if (!this.known.has(start)) this.scan(start);
    return this.known.get(start) ?? -1;
  }

  private scan(start: number): void {
    const open: [closer: string, at: number][] = [];
    let quote: string | undefined;
    for (let i = start; i < this.text.length; i++) {
      const ch = this.text[i]!;
      if (quote) {
        if (ch === "\\") i++;
        else if (ch === quote) quote = undefined;
      } else if (ch === "'" || ch === '"') {
        quote = ch;
      } else if (PAIRS[ch]) {
        open.push([PAIRS[ch], i]);
      } else if (ch === ")" || ch === "]" || ch === "}") {
        const top = open.pop();
        if (top?.[0] !== ch) {
          if (top) open.push(top);
          break;
        }
        this.known.set(top[1], i + 1);
        if (open.length === 0) return;
      }
    }
    // unbalanced (a wrong closer, or the end of the text): the brackets still open have no match
    for (const [, at] of open) this.known.set(at, -1);
  }
}
