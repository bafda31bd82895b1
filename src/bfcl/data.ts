/**
 * Reading BFCL's files (all JSON Lines despite the `.json` suffix): questions with function docs,
 * possible answers (through the tagged JSON parser, so `5.0` stays a float), recorded results and
 * BFCL's score files. Every malformed line is a `BfclInputError` naming file:line.
 */
import { readFileSync } from "node:fs";
import { parseTaggedJson } from "../python/json-tagged.ts";
import { dictField, type PyValue } from "../python/value.ts";
import { BfclInputError } from "./errors.ts";
import type { BfclQuestion, BfclVerdict, ExpectedCall } from "./types.ts";

interface Line {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

function readLines(file: string): Line[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (cause) {
    throw new BfclInputError("BFCL_UNREADABLE_FILE", `cannot read ${file}: ${(cause as Error).message}`, {
      context: { file },
      cause,
    });
  }
  const lines: Line[] = [];
  text.split("\n").forEach((raw, i) => {
    const lineText = raw.trim();
    if (lineText !== "") lines.push({ file, line: i + 1, text: lineText });
  });
  return lines;
}

function badLine(at: Line, what: string, cause?: unknown): BfclInputError {
  return new BfclInputError("BFCL_BAD_LINE", `${at.file}:${at.line}: ${what}`, {
    context: { file: at.file, line: at.line },
    cause,
  });
}

function parsePlain(at: Line): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(at.text);
  } catch (cause) {
    throw badLine(at, `malformed JSON: ${(cause as Error).message}`, cause);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw badLine(at, "expected a JSON object");
  return value as Record<string, unknown>;
}

function parseTagged(at: Line): PyValue & { kind: "dict" } {
  let value: PyValue;
  try {
    value = parseTaggedJson(at.text);
  } catch (cause) {
    throw badLine(at, `malformed JSON: ${(cause as Error).message}`, cause);
  }
  if (value.kind !== "dict") throw badLine(at, "expected a JSON object");
  return value;
}

function stringId(at: Line, id: unknown): string {
  if (typeof id !== "string") throw badLine(at, 'missing string "id"');
  return id;
}

export function loadQuestions(file: string): BfclQuestion[] {
  return readLines(file).map((at) => {
    const obj = parsePlain(at);
    stringId(at, obj.id);
    if (!Array.isArray(obj.function)) throw badLine(at, 'missing "function" list');
    for (const doc of obj.function as unknown[]) {
      const d = doc as { name?: unknown; parameters?: { properties?: unknown } } | null;
      if (typeof d?.name !== "string" || typeof d.parameters?.properties !== "object") {
        throw badLine(at, "a function doc lacks a name or parameters.properties");
      }
    }
    return obj as unknown as BfclQuestion;
  });
}

/** possible_answer file → id → expected calls (`ground_truth: [{name: {param: [acceptable…]}}]`). */
export function loadPossibleAnswers(file: string): Map<string, ExpectedCall[]> {
  const answers = new Map<string, ExpectedCall[]>();
  for (const at of readLines(file)) {
    const obj = parseTagged(at);
    const id = dictField(obj, "id");
    const truth = dictField(obj, "ground_truth");
    if (id?.kind !== "str") throw badLine(at, 'missing string "id"');
    if (truth?.kind !== "list") throw badLine(at, 'missing "ground_truth" list');
    answers.set(
      id.value,
      truth.items.map((call) => expectedCallOf(at, call)),
    );
  }
  return answers;
}

/**
 * BFCL's data has a malformed ground-truth call (parallel_multiple_179: `{"deck": [[], ""]}`). It still
 * counts as an expected call (BFCL compares the number of calls first), so it is kept, with `problem`.
 */
function expectedCallOf(at: Line, call: PyValue): ExpectedCall {
  if (call.kind !== "dict" || call.entries.length !== 1 || call.entries[0]![0].kind !== "str") {
    throw badLine(at, "a ground-truth call is not {name: {args}}");
  }
  const [key, args] = call.entries[0]!;
  const name = (key as PyValue & { kind: "str" }).value;
  const expected = new Map<string, readonly PyValue[]>();
  if (args.kind !== "dict") return { name, args: expected, problem: "ground-truth arguments are not an object" };
  for (const [param, acceptable] of args.entries) {
    if (param.kind !== "str" || acceptable.kind !== "list") {
      return { name, args: expected, problem: "ground-truth acceptable values are not a list" };
    }
    expected.set(param.value, acceptable.items);
  }
  return { name, args: expected };
}

export interface RecordedResult {
  readonly id: string;
  /** A prompt-mode string, or a function-calling value (list/dict) as parsed with int/float kept. */
  readonly result: string | PyValue;
  readonly line: number;
  /** As recorded by the run, when it recorded them. */
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly latencySeconds?: number;
}

/**
 * Result lines are parsed with JSON.parse first (fast); only a line whose `result` is not a string (a
 * function-calling value, where `5` vs `5.0` matters) is parsed again with the tagged parser.
 */
export function loadResults(file: string): RecordedResult[] {
  return readLines(file).map((at) => {
    const obj = parsePlain(at);
    const id = stringId(at, obj.id);
    if (obj.result === undefined) throw badLine(at, 'missing "result"');
    const result = typeof obj.result === "string" ? obj.result : (dictField(parseTagged(at), "result") as PyValue);
    return {
      id,
      result,
      line: at.line,
      ...numberField("inputTokens", obj.input_token_count),
      ...numberField("outputTokens", obj.output_token_count),
      ...numberField("latencySeconds", obj.latency),
    };
  });
}

function numberField<K extends string>(key: K, value: unknown): { [P in K]?: number } {
  return (typeof value === "number" ? { [key]: value } : {}) as { [P in K]?: number };
}

/** A BFCL score file: line 1 the summary, then one line per FAILING entry. */
export interface ScoreFile {
  readonly accuracy: number;
  readonly correctCount: number;
  readonly totalCount: number;
  /** Failing entries, keyed by question id (resolved from `prompt.id`, or the 1-based index). */
  readonly failures: ReadonlyMap<string, BfclVerdict & { valid: false }>;
}

/** `resultIds` (in result-file order) resolves a numeric, 1-based `id` when a line has no `prompt.id`. */
export function loadScoreFile(file: string, resultIds: readonly string[]): ScoreFile {
  const [head, ...rest] = readLines(file);
  if (!head) throw new BfclInputError("BFCL_BAD_LINE", `${file}:1: empty score file`, { context: { file } });
  const summary = parsePlain(head);
  const { accuracy, correct_count, total_count } = summary;
  if (typeof accuracy !== "number" || typeof correct_count !== "number" || typeof total_count !== "number") {
    throw badLine(head, "line 1 must be {accuracy, correct_count, total_count}");
  }
  const failures = new Map<string, BfclVerdict & { valid: false }>();
  for (const at of rest) {
    const obj = parsePlain(at);
    const id = scoreLineId(at, obj, resultIds);
    // single-turn lines carry error_type and a list of errors; multi-turn lines nest both in `error`
    const nested =
      typeof obj.error === "object" && obj.error !== null && !Array.isArray(obj.error)
        ? (obj.error as Record<string, unknown>)
        : undefined;
    const messages = nested ? [nested.error_message].flat() : Array.isArray(obj.error) ? obj.error : [];
    const error = messages.map((e) => (typeof e === "string" ? e : JSON.stringify(e)));
    failures.set(id, { valid: false, errorType: String(obj.error_type ?? nested?.error_type ?? "unknown"), error });
  }
  return { accuracy, correctCount: correct_count, totalCount: total_count, failures };
}

function scoreLineId(at: Line, obj: Record<string, unknown>, resultIds: readonly string[]): string {
  const prompt = obj.prompt as { id?: unknown } | undefined;
  if (typeof prompt?.id === "string") return prompt.id;
  if (typeof obj.id === "string") return obj.id;
  if (typeof obj.id === "number") {
    const id = resultIds[obj.id - 1];
    if (id !== undefined) return id;
  }
  throw badLine(at, "cannot tell which question this score line is about (no prompt.id, id out of range)");
}
