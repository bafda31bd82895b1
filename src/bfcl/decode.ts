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

import { tooDeep } from "../nesting.ts";
import { PyEvalError } from "../python/evaluate.ts";
import { parseExpression } from "../python/parser.ts";
import { type DecodedCall, resolveCalls } from "../python/resolve.ts";
import { PySyntaxError } from "../python/tokenizer.ts";
import { dictField, type PyValue } from "../python/value.ts";
import { JsonSyntaxError, MAX_JSON_DEPTH, parseTaggedJson } from "./json-tagged.ts";

export type { DecodedCall } from "../python/resolve.ts";

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
const CALL_START = /[A-Za-z_][\w.]*\s*\(/g;

function decodeLenient(text: string): DecodeResult {
  const strict = decodePromptOutput(text);
  if (strict.ok) return strict;
  for (const candidate of lenientCandidates(text)) {
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
  for (const m of text.matchAll(FENCE)) out.push(m[1]!);
  for (let i = 0; i < text.length && out.length < MAX_CANDIDATES; i++) {
    if (text[i] === "[" || text[i] === "{") {
      const end = balancedEnd(text, i);
      if (end > i) out.push(text.slice(i, end));
    }
  }
  const calls: string[] = [];
  for (const m of text.matchAll(CALL_START)) {
    const open = m.index + m[0].length - 1;
    const end = balancedEnd(text, open);
    if (end > open && !calls.some((c) => c.includes(text.slice(m.index, end)))) calls.push(text.slice(m.index, end));
    if (calls.length >= MAX_CANDIDATES) break;
  }
  if (calls.length > 0) out.push(calls.join(", "));
  return out;
}

const PAIRS: Readonly<Record<string, string>> = { "(": ")", "[": "]", "{": "}" };

/** The index just past the bracket matching the one at `start`, skipping quoted text; -1 if none. */
function balancedEnd(text: string, start: number): number {
  const stack: string[] = [];
  let quote: string | undefined;
  for (let i = start; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
    } else if (PAIRS[ch]) {
      stack.push(PAIRS[ch]);
    } else if (ch === ")" || ch === "]" || ch === "}") {
      if (stack.pop() !== ch) return -1;
      if (stack.length === 0) return i + 1;
    }
  }
  return -1;
}
