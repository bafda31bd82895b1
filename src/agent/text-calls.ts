/**
 * Tool calls left as text: a model called a tool, but the server's chat template did not recognise the
 * call, so it came back in the answer's text with no `tool_calls`. Finds such calls in the formats small
 * models write, and counts only calls to tools that were offered. Never throws.
 *
 * Formats, tried in this order (the first that yields a call to an offered tool wins):
 * - `hermes`: Hermes / Qwen `<tool_call>{"name": …, "arguments": …}</tool_call>` (the closing tag may be missing);
 * - `mistral`: `[TOOL_CALLS][{"name": …, "arguments": …}]`, or the newer `[TOOL_CALLS]name[ARGS]{…}`;
 * - `fenced_json`: a ```json (or bare ```) block holding call objects;
 * - `llama3_json`: a JSON call object or list in the text — Llama 3's `{"name": …, "parameters": …}`,
 *   and every JSON form BFCL's decoder reads (`{name, arguments}`, `{function: {…}}`, `{name: {args}}`);
 * - `pythonic`: a Python list of calls `[f(a=1), g(b="x")]`;
 * - `bfcl`: whatever else BFCL's lenient decoder (src/python/decode-output.ts) reads, e.g. `f(a=1)` in prose.
 */

import { BracketEnds, type DecodedCall, decodeOutput, decodePromptOutput } from "../python/decode-output.ts";
import { JsonSyntaxError, parseTaggedJson } from "../python/json-tagged.ts";
import { toJson } from "../python/value.ts";

export const TEXT_CALL_FORMATS = ["hermes", "mistral", "fenced_json", "llama3_json", "pythonic", "bfcl"] as const;
export type TextCallFormat = (typeof TEXT_CALL_FORMATS)[number];

export interface TextCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface TextCallsFound {
  format: TextCallFormat;
  /** The calls to offered tools, in text order (calls to other names are not calls here). */
  calls: TextCall[];
  /** The text without the recognised calls, trimmed: what the answer would have said had the server parsed them. */
  rest: string;
}

/** Longest answer read: past it the text is cut (a tool call is near the start of a turn). */
export const MAX_SCANNED_CHARS = 16_384;
const PYTHON_TAG = "<|python_tag|>";
/** Spans tried per format: a text full of brackets costs at most this many parses. */
const MAX_SPANS = 64;

type Span = readonly [start: number, end: number];
interface Detected {
  calls: DecodedCall[];
  spans: Span[];
}
type Detector = (text: string, names: PythonNames) => Detected;

const DETECTORS: Readonly<Record<TextCallFormat, Detector>> = {
  hermes: hermesCalls,
  mistral: mistralCalls,
  fenced_json: fencedCalls,
  llama3_json: (text) => bracketedCalls(text, "{[", jsonCalls),
  pythonic: (text, names) => names.decoded(bracketedCalls(names.aliased(text), "[", pythonCalls)),
  bfcl: (text, names) => names.decoded(lenientCalls(names.aliased(text))),
};

export function findTextCalls(text: string, offered: Iterable<string>): TextCallsFound | undefined {
  const names = new Set(offered);
  if (names.size === 0 || text.trim() === "") return undefined;
  // Llama 3.1 opens a call with <|python_tag|> when its template did not eat it
  const scanned = (text.length > MAX_SCANNED_CHARS ? text.slice(0, MAX_SCANNED_CHARS) : text).replaceAll(
    PYTHON_TAG,
    "",
  );
  const python = new PythonNames(names);
  for (const format of TEXT_CALL_FORMATS) {
    const detected = DETECTORS[format](scanned, python);
    const calls = detected.calls.filter((call) => names.has(call.name));
    if (calls.length > 0) return { format, calls: calls.map(plainCall), rest: withoutSpans(scanned, detected.spans) };
  }
  return undefined;
}

function plainCall(call: DecodedCall): TextCall {
  return { name: call.name, arguments: Object.fromEntries([...call.args].map(([key, value]) => [key, toJson(value)])) };
}

function withoutSpans(text: string, spans: readonly Span[]): string {
  let rest = "";
  let at = 0;
  for (const [start, end] of [...spans].sort((a, b) => a[0] - b[0])) {
    if (start < at) continue;
    rest += text.slice(at, start);
    at = end;
  }
  return (rest + text.slice(at)).replace(/\n{3,}/g, "\n\n").trim();
}

const NONE: Detected = { calls: [], spans: [] };

const PYTHON_NAME = /^[A-Za-z_][\w.]*$/;

/**
 * Tool names Python cannot parse as a call (`search-events(…)`, common in MCP servers) stand in Python text
 * as an alias of the same length, so the spans found still point into the text; calls come back named.
 */
class PythonNames {
  private readonly byAlias = new Map<string, string>();
  private readonly pattern: RegExp | undefined;

  constructor(names: ReadonlySet<string>) {
    const odd = [...names].filter((name) => !PYTHON_NAME.test(name)).sort((a, b) => b.length - a.length);
    odd.forEach((name, index) => {
      const tag = `_${index}_`;
      const alias = `${tag}${"_".repeat(Math.max(0, name.length - tag.length))}`;
      if (alias.length === name.length) this.byAlias.set(alias, name);
    });
    const escaped = [...this.byAlias.values()].map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    this.pattern = escaped.length > 0 ? new RegExp(`(?<![\\w.-])(${escaped.join("|")})(?=\\s*\\()`, "g") : undefined;
  }

  aliased(text: string): string {
    if (!this.pattern) return text;
    const aliasOf = new Map([...this.byAlias].map(([alias, name]) => [name, alias]));
    return text.replace(this.pattern, (name) => aliasOf.get(name) ?? name);
  }

  decoded(found: Detected): Detected {
    if (this.byAlias.size === 0) return found;
    const calls = found.calls.map((call) => ({ ...call, name: this.byAlias.get(call.name) ?? call.name }));
    return { calls, spans: found.spans };
  }
}

// ─── the formats ────────────────────────────────────────────────────────────────────────────────

const HERMES = /<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/g;
const FENCE = /```[ \t]*(?:json|JSON|tool_call|tool_code)?[ \t]*\n?([\s\S]*?)```/g;

function hermesCalls(text: string): Detected {
  return wrappedCalls(text, HERMES);
}

function fencedCalls(text: string): Detected {
  return wrappedCalls(text, FENCE);
}

/** Calls in the JSON each match of `pattern` wraps (its first group); the whole match is the call's span. */
function wrappedCalls(text: string, pattern: RegExp): Detected {
  const found: Detected = { calls: [], spans: [] };
  for (const match of text.matchAll(pattern)) {
    const calls = jsonCalls(match[1]!.trim());
    if (calls.length === 0) continue;
    found.calls.push(...calls);
    found.spans.push([match.index, match.index + match[0].length]);
  }
  return found;
}

const MISTRAL = "[TOOL_CALLS]";
const MISTRAL_NAMED = /^\s*([A-Za-z_][\w.-]*)\[ARGS\]/;

function mistralCalls(text: string): Detected {
  const found: Detected = { calls: [], spans: [] };
  const ends = new BracketEnds(text);
  for (let at = text.indexOf(MISTRAL); at >= 0; at = text.indexOf(MISTRAL, at + 1)) {
    const after = at + MISTRAL.length;
    const named = MISTRAL_NAMED.exec(text.slice(after));
    const open = named ? after + named[0].length : firstNonSpace(text, after);
    if (open < 0 || (text[open] !== "[" && text[open] !== "{")) continue;
    const end = ends.after(open);
    if (end < 0) continue;
    const body = text.slice(open, end);
    const calls = named ? jsonCalls(`{${JSON.stringify(named[1])}: ${body}}`) : jsonCalls(body);
    if (calls.length === 0) continue;
    found.calls.push(...calls);
    found.spans.push([at, end]);
  }
  return found;
}

function firstNonSpace(text: string, from: number): number {
  const match = /\S/.exec(text.slice(from));
  return match ? from + match.index : -1;
}

/** Outermost balanced spans opened by one of `openers`, each read by `read`. */
function bracketedCalls(text: string, openers: string, read: (span: string) => DecodedCall[]): Detected {
  const found: Detected = { calls: [], spans: [] };
  const ends = new BracketEnds(text);
  let tried = 0;
  for (let i = 0; i < text.length && tried < MAX_SPANS; i++) {
    if (!openers.includes(text[i]!)) continue;
    const end = ends.after(i);
    if (end < 0) continue;
    tried++;
    const calls = read(text.slice(i, end));
    if (calls.length === 0) continue;
    found.calls.push(...calls);
    found.spans.push([i, end]);
    i = end - 1;
  }
  return found;
}

function lenientCalls(text: string): Detected {
  const decoded = decodeOutput(text, { lenient: true });
  // the lenient decoder does not say where its calls were: the whole text is taken as the call
  return decoded.ok ? { calls: [...decoded.calls], spans: [[0, text.length]] } : NONE;
}

/** A JSON call object or list (BFCL's function-calling forms); none when the text is not one. */
function jsonCalls(source: string): DecodedCall[] {
  if (!source.startsWith("{") && !source.startsWith("[")) return [];
  let value: ReturnType<typeof parseTaggedJson>;
  try {
    value = parseTaggedJson(source);
  } catch (error) {
    if (error instanceof JsonSyntaxError) return [];
    throw error;
  }
  const decoded = decodeOutput(value);
  return decoded.ok ? [...decoded.calls] : [];
}

/** A Python list of calls, as BFCL reads prompt-mode output. */
function pythonCalls(source: string): DecodedCall[] {
  if (!/^\[\s*[A-Za-z_][\w.]*\s*\(/.test(source)) return [];
  const decoded = decodePromptOutput(source);
  return decoded.ok ? [...decoded.calls] : [];
}
