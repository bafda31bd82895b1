/**
 * Reads a planner completion as WRITTEN, for classifying the model's errors — unlike the agent's
 * plan parser, which repairs what it can, this keeps every deviation visible: prose around the
 * calls, positional arguments, `name: value` pairs, unclosed calls, calls without a `#En =` header.
 *
 * Each argument value is read as a Python expression by the BFCL track's parser (the planner prompt
 * asks for `tool(param="value")`, which is Python call syntax); `#E1` / `#E1.items[0].id` references
 * are read as strings, JSON's true/false/null as values, a bare word as its text.
 */

import { OnsetlabError } from "../../errors.ts";
import type { PyNode } from "../../python/ast.ts";
import { evaluate } from "../../python/evaluate.ts";
import { parseExpression } from "../../python/parser.ts";
import { unparse } from "../../python/unparse.ts";
import { toJson } from "../../python/value.ts";

export interface PlanTextStep {
  /** `#E2`, or null for a call written without a header. */
  id: string | null;
  tool: string;
  named: Record<string, unknown>;
  positional: unknown[];
  /** Why the call is not well-formed call syntax (null when it is). */
  malformed: string | null;
  /**
   * Some argument could not be read (an unterminated string swallowing what follows): the names
   * given may be incomplete, so what is absent is not known to be missing.
   */
  incomplete: boolean;
  /** Named arguments whose value could not be read (their value here is the raw text). */
  unreadable: string[];
  /** The first argument has no name. */
  firstPositional: boolean;
  /** The call as written. */
  text: string;
}

export interface PlanText {
  steps: PlanTextStep[];
  /** Text outside the steps (explanations, code fences, a direct answer), trimmed fragments. */
  prose: string[];
  /** A chat-template token leaked into the output (`<|im_end|>`, `</s>` …). */
  templateToken: boolean;
}

/** The prompt ends with this, so the completion starts inside the first step. */
const FIRST_HEADER = "#E1 =";
const HEADER = /#E(\d+)\s*(?:=|:(?!\/))/g;
// Tried only where a word starts (the name begins at its first letter, as `1.get_me(`): trying every position
// inside a long word was quadratic.
const CALL_START = /(?<![\w.-])[\d.-]*([A-Za-z_][\w.-]*)\s*\(/g;
const REFERENCE = /#E\d+(?:\.[A-Za-z_][\w-]*|\.\d+|\[\d+\]|\[["'][^"'\]]*["']\])*/y;
const KEYWORD_ARG = /^([A-Za-z_][\w-]*)\s*=(?!=)/;
const COLON_ARG = /^(["']?)([A-Za-z_][\w-]*)\1\s*:/;
/** Separators that are not prose: whitespace and stray `;` `,` `.` between calls. */
const NOT_PROSE = /^[\s;,.]*$/;
const TEMPLATE_TOKEN = /<\|[a-z_]+\|>|<\/s>|<\/?(?:eos|bos)>/i;
/** Where a value ends and the next begins with no comma between: `a="x" b=2`, `"x" "y"`. */
const VALUE_END = /["'\]}\d]/;
const NEXT_VALUE = /(?:[A-Za-z_][\w-]*\s*=(?!=)|["'[{])/y;
const JSON_WORDS: Readonly<Record<string, unknown>> = { true: true, false: false, null: null, undefined: null };

/** `isTool` tells a tool call from a parenthesis in prose when no header says so. */
export function readPlanText(completion: string, isTool: (name: string) => boolean): PlanText {
  const text = `${FIRST_HEADER}${completion}`;
  const out: PlanText = { steps: [], prose: [], templateToken: TEMPLATE_TOKEN.test(completion) };
  const budget = new ScanBudget(text.length);
  let pos = 0;
  while (pos < text.length) {
    const header = matchFrom(HEADER, text, pos);
    if (!header) {
      readLoose(text, pos, text.length, isTool, out, budget);
      break;
    }
    readLoose(text, pos, header.index, isTool, out, budget);
    const bodyStart = header.index + header[0].length;
    const regionEnd = matchFrom(HEADER, text, bodyStart)?.index ?? text.length;
    const call = pickCall(text, bodyStart, regionEnd, isTool);
    if (!call) {
      addProse(out, text.slice(bodyStart, regionEnd));
      pos = regionEnd;
      continue;
    }
    addProse(out, text.slice(bodyStart, call.start));
    const step = readCall(text, call, regionEnd, `#E${header[1]}`, budget);
    out.steps.push(step.step);
    pos = step.end;
  }
  return out;
}

function matchFrom(pattern: RegExp, text: string, from: number): RegExpExecArray | null {
  pattern.lastIndex = from;
  return pattern.exec(text);
}

interface CallStart {
  name: string;
  start: number;
  open: number;
}

/** The call in a step's text: the first known tool, else the first thing that looks like a call. */
function pickCall(text: string, from: number, to: number, isTool: (name: string) => boolean): CallStart | undefined {
  const candidates: CallStart[] = [];
  for (const match of text.slice(from, to).matchAll(CALL_START)) {
    const start = from + match.index + match[0].indexOf(match[1]!);
    candidates.push({ name: match[1]!, start, open: start + match[0].length - 1 });
  }
  return candidates.find((candidate) => isTool(candidate.name)) ?? candidates[0];
}

/** Text outside any header: calls of known tools in it are steps without a header, the rest prose. */
function readLoose(
  text: string,
  from: number,
  to: number,
  isTool: (name: string) => boolean,
  out: PlanText,
  budget: ScanBudget,
): void {
  let pos = from;
  for (const match of text.slice(from, to).matchAll(CALL_START)) {
    const start = from + match.index + match[0].indexOf(match[1]!);
    if (start < pos || !isTool(match[1]!)) continue;
    addProse(out, text.slice(pos, start));
    const step = readCall(text, { name: match[1]!, start, open: start + match[0].length - 1 }, to, null, budget);
    out.steps.push(step.step);
    pos = step.end;
  }
  addProse(out, text.slice(pos, to));
}

function addProse(out: PlanText, fragment: string): void {
  if (!NOT_PROSE.test(fragment)) out.prose.push(fragment.trim());
}

function readCall(
  text: string,
  call: CallStart,
  regionEnd: number,
  id: string | null,
  budget: ScanBudget,
): { step: PlanTextStep; end: number } {
  const headerEnd = Math.max(regionEnd, call.open + 1);
  let scan = budget.spend(scanArguments(text, call.open, budget.left() ? text.length : headerEnd), call.open);
  // An unclosed call stops at the next header, so the steps after it are still read.
  if (!scan.closed) scan = scanArguments(text, call.open, headerEnd);
  const problems: string[] = [];
  if (!scan.closed) problems.push("call is not closed with )");
  if (id === null) problems.push("no #En = header");
  const named: Record<string, unknown> = {};
  const positional: unknown[] = [];
  const unreadable: string[] = [];
  let incomplete = false;
  let firstPositional: boolean | undefined;
  scan.pieces.forEach((piece, index) => {
    const parts = splitMissingCommas(piece.trim());
    if (parts.length > 1) problems.push("arguments without a comma between them");
    for (const source of parts) {
      if (source === "") {
        // `tool()` and a trailing comma are fine; an empty slot between commas is not.
        if (index < scan.pieces.length - 1) problems.push("empty argument");
        continue;
      }
      const keyword = KEYWORD_ARG.exec(source);
      const colon = keyword ? null : COLON_ARG.exec(source);
      const name = keyword?.[1] ?? colon?.[2];
      if (colon) problems.push(`"${name}:" instead of ${name}=`);
      const valueSource = name === undefined ? source : source.slice((keyword ?? colon)![0].length);
      const value = readValue(valueSource.trim());
      if (value.problem) {
        problems.push(value.problem);
        incomplete = true;
        if (name !== undefined) unreadable.push(name);
      }
      firstPositional ??= name === undefined;
      if (name === undefined) positional.push(value.value);
      else setOwn(named, name, value.value);
    }
  });
  return {
    step: {
      id,
      tool: call.name,
      named,
      positional,
      malformed: problems.length > 0 ? problems.join("; ") : null,
      incomplete,
      unreadable,
      firstPositional: firstPositional ?? false,
      text: text.slice(call.start, scan.end).trim(),
    },
    end: scan.end,
  };
}

/** `a="x" b=2` → `a="x"`, `b=2`: splits where one value ends and the next starts with no comma. */
function splitMissingCommas(source: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (quote !== null) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if ("([{".includes(ch)) depth++;
    else if (")]}".includes(ch)) depth = Math.max(0, depth - 1);
    else if (depth === 0 && /\s/.test(ch) && endsValue(source, start, i) && startsValue(source, i)) {
      parts.push(source.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(source.slice(start).trim());
  return parts.filter((part, index) => part !== "" || index === 0);
}

/**
 * The text from `start` up to the whitespace at `end` holds a complete value (it ends like one). Only the
 * first whitespace of a run is asked (the others give the same answer), which keeps the split linear.
 */
function endsValue(source: string, start: number, end: number): boolean {
  const last = source[end - 1] ?? "";
  return end > start && !/\s/.test(last) && VALUE_END.test(last);
}

/** A next value (`name=`, a string, a list or a dict) starts after the whitespace at `from`. */
function startsValue(source: string, from: number): boolean {
  let next = from;
  while (next < source.length && /\s/.test(source[next] ?? "")) next++;
  NEXT_VALUE.lastIndex = next;
  return NEXT_VALUE.test(source);
}

/**
 * A call may run past the next header (a header-like text in a string): its first scan reads to the end of
 * the text. Many unclosed calls would make that quadratic, so those scans share a budget of a few times the
 * text's length; once it is spent, a call is looked for only up to the next header (as after an unclosed one).
 */
class ScanBudget {
  private chars: number;

  constructor(length: number) {
    this.chars = 4 * length;
  }

  left(): boolean {
    return this.chars > 0;
  }

  spend(scan: ArgumentScan, open: number): ArgumentScan {
    this.chars -= scan.end - open;
    return scan;
  }
}

interface ArgumentScan {
  pieces: string[];
  closed: boolean;
  /** Just after the closing parenthesis. */
  end: number;
}

/** Splits a call's arguments at top-level commas up to `limit`, skipping over strings and brackets. */
function scanArguments(text: string, open: number, limit: number): ArgumentScan {
  const pieces: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let pieceStart = open + 1;
  for (let i = open + 1; i < limit; i++) {
    const ch = text[i]!;
    if (quote !== null) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "(" || ch === "[" || ch === "{") depth++;
    else if (ch === ")" || ch === "]" || ch === "}") {
      if (depth > 0) depth--;
      else if (ch === ")") {
        pieces.push(text.slice(pieceStart, i));
        return { pieces, closed: true, end: i + 1 };
      }
    } else if (ch === "," && depth === 0) {
      pieces.push(text.slice(pieceStart, i));
      pieceStart = i + 1;
    }
  }
  pieces.push(text.slice(pieceStart, limit));
  return { pieces, closed: false, end: limit };
}

/** The common values read without the parser: a quoted string with no escapes, a decimal number. */
const SIMPLE_STRING = /^(?:"([^"\\\n]*)"|'([^'\\\n]*)')$/;
const SIMPLE_NUMBER = /^-?(?:0|[1-9]\d{0,14})(?:\.\d+)?$/;

/** One argument value; on a syntax error the text itself, with the problem. */
function readValue(source: string): { value: unknown; problem?: string } {
  if (source === "") return { value: "", problem: "argument without a value" };
  const simple = SIMPLE_STRING.exec(source);
  if (simple) return { value: simple[1] ?? simple[2] };
  if (SIMPLE_NUMBER.test(source)) return { value: Number(source) };
  try {
    return { value: literalValue(parseExpression(quoteReferences(source))) };
  } catch (error) {
    return { value: source, problem: `unreadable value ${JSON.stringify(source.slice(0, 40))}: ${describe(error)}` };
  }
}

/**
 * `#E1.items[0].id` outside string literals → `"#E1.items[0].id"` (Python would read `#` as a
 * comment). Any other `#` outside a string is an error here: in a value it means a string ended
 * early (`"a.md, content="# Intro"`), not a comment.
 */
function quoteReferences(source: string): string {
  let out = "";
  let quote: string | null = null;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (quote !== null) {
      out += ch;
      if (ch === "\\" && i + 1 < source.length) out += source[++i];
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    if (ch === "#") {
      REFERENCE.lastIndex = i;
      const reference = REFERENCE.exec(source);
      if (!reference) throw new PlanValueError(`"#" outside a string at ${i}`);
      out += JSON.stringify(reference[0]);
      i += reference[0].length - 1;
      continue;
    }
    out += ch;
  }
  return out;
}

/** A parsed value as plain JSON: literals as Python reads them, anything else as its source text. */
function literalValue(node: PyNode): unknown {
  switch (node.type) {
    case "Constant":
      return toJson(node.value);
    case "Name":
      return Object.hasOwn(JSON_WORDS, node.id) ? JSON_WORDS[node.id] : node.id;
    case "List":
    case "Tuple":
    case "Set":
      return node.elts.map(literalValue);
    case "Dict": {
      const out: Record<string, unknown> = {};
      node.keys.forEach((key, index) => {
        if (key !== null) setOwn(out, String(literalValue(key)), literalValue(node.values[index]!));
      });
      return out;
    }
    case "UnaryOp":
    case "BinOp":
      try {
        return toJson(evaluate(node));
      } catch {
        // Not arithmetic on literals (e.g. `-x`): keep what the model wrote.
        return unparse(node);
      }
    default:
      return unparse(node);
  }
}

/** An own property even for `__proto__`, so model text cannot reach an object's prototype. */
/** A value the reader cannot take as written (reported as a problem of the step, never thrown out). */
class PlanValueError extends OnsetlabError {
  constructor(message: string) {
    super("PLAN_VALUE_UNREADABLE", message);
  }
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else target[key] = value;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
