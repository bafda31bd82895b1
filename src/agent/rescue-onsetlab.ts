/**
 * OnsetLab's parameter rescue (`rescue: onsetlab`; `agent_service.py@a7715a0` `_check_rewoo_failed`,
 * `_extract_missing_param_info`, `_extract_param_value`, `_rescue_missing_params`), quirks included:
 * - it runs only when the plan failed as a whole (every result an error, or error-looking text);
 * - it patches the step of the first result that says "missing … param", reading the names from that
 *   message lower-cased, so a camelCase `pullNumber` becomes `pullnumber` and is never filled;
 * - seven kinds of value by parameter name (title, body, owner, repo, method, issue/pull number,
 *   query), read with OnsetLab's patterns: an `owner/repo.` keeps its trailing `.`, a query its `?`,
 *   and a quote of one kind may close at a quote of the other;
 * - a value found is set under the lower-cased name; the step's error is cleared only when every
 *   missing name was filled.
 */

import type { StepOutcome } from "./executor.ts";
import { PY_WORD_CHAR } from "./onsetlab-text.ts";
import { type RescueInput, type RescueOutput, rescueRecord } from "./rescue.ts";
import type { PlanStep, RescueRecord } from "./types.ts";

const W = PY_WORD_CHAR;
const W_DASH = `[${W.slice(1, -1)}-]`;
const W_DOT_DASH = `[${W.slice(1, -1)}.-]`;
const OWNER_REPO = new RegExp(`(${W}${W_DASH}*)/(${W}${W_DOT_DASH}+)`, "u");
/** A value between quotes of either kind: `"it's"` ends at the apostrophe. */
const QUOTED = /["']([^"']+)["']/g;

/** Substrings of a result OnsetLab reads as an error. */
const ERROR_MARKERS = [
  "error:",
  "error -",
  "failed:",
  "exception:",
  "cannot ",
  "could not ",
  "unable to ",
  "not found",
  "permission denied",
  "missing required",
  "missing param",
  "invalid ",
  "unauthorized",
  "forbidden",
  "bad request",
  "timed out",
  "timeout",
];

const METHOD_VERBS: [string, string[]][] = [
  ["create", ["create", "new", "add", "make", "open"]],
  ["update", ["update", "edit", "modify", "change"]],
  ["update", ["close", "closed"]],
  ["get", ["list", "show", "get", "find", "fetch"]],
];

const TITLE_PATTERNS = [
  /titled\s+["']([^"']+)["']/i,
  /titled\s+(\S+)/i,
  /called\s+["']([^"']+)["']/i,
  /named\s+["']([^"']+)["']/i,
  /title\s*[:=]\s*["']([^"']+)["']/i,
];
const BODY_PATTERNS = [
  /body\s+["']([^"']+)["']/i,
  /with body\s+["']([^"']+)["']/i,
  /saying\s+["']([^"']+)["']/i,
  /description\s+["']([^"']+)["']/i,
];
/** Python's `.` (anything but a newline) to the end of the line. */
const QUERY_PATTERNS = [/search (?:for )?([^\n]+)/i, /find ([^\n]+)/i, /look (?:up |for )([^\n]+)/i];

/** A value for a parameter (named as OnsetLab lower-cased it) from the query, or undefined. */
export function onsetlabParamValue(query: string, param: string): string | number | undefined {
  switch (param) {
    case "title":
      return firstGroup(TITLE_PATTERNS, query) ?? quoted(query).at(-1);
    case "body":
      return firstGroup(BODY_PATTERNS, query);
    case "owner":
      return OWNER_REPO.exec(query)?.[1];
    case "repo":
      return OWNER_REPO.exec(query)?.[2];
    case "method": {
      const lower = query.toLowerCase();
      return METHOD_VERBS.find(([, verbs]) => verbs.some((verb) => lower.includes(verb)))?.[0];
    }
    case "issue_number":
    case "pull_number": {
      const found = /#(\d+)/.exec(query)?.[1] ?? /(?:issue|pr|pull request)\s+(\d+)/i.exec(query)?.[1];
      return found === undefined ? undefined : Number(found);
    }
    case "query":
      return quoted(query)[0] ?? firstGroup(QUERY_PATTERNS, query)?.trim();
    default:
      return undefined;
  }
}

function firstGroup(patterns: readonly RegExp[], text: string): string | undefined {
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match) return match[1];
  }
  return undefined;
}

function quoted(text: string): string[] {
  return [...text.matchAll(QUOTED)].map((match) => match[1] as string);
}

export function looksLikeOnsetlabError(text: string): boolean {
  const lower = text.toLowerCase();
  return ERROR_MARKERS.some((marker) => lower.includes(marker));
}

/**
 * The step and parameter names OnsetLab's rescue would take: the first outcome that says "missing …
 * param". A step the validator rejected lists its names (OnsetLab's validator message lists them);
 * a server's message is read with OnsetLab's pattern.
 */
function missingInfo(outcomes: readonly StepOutcome[]): { id: string; names: string[] } | undefined {
  for (const outcome of outcomes) {
    const text = (outcome.status === "ok" ? outcome.text : (outcome.error ?? outcome.text)).toLowerCase();
    if (!text.includes("missing required param") && !text.includes("missing param")) continue;
    if (outcome.status === "skipped" && outcome.missing?.length) {
      return { id: outcome.id, names: outcome.missing.map((name) => name.toLowerCase()) };
    }
    const listed = /missing required param(?:eter)?s?:?\s*([^\n]+)/i.exec(text)?.[1];
    if (listed === undefined) return { id: outcome.id, names: ["required parameter"] };
    const names = listed
      .replace(/^[[\] '"]+|[[\] '"]+$/g, "")
      .split(",")
      .map((name) => name.replace(/^[' "]+|[' "]+$/g, ""));
    return { id: outcome.id, names };
  }
  return undefined;
}

export function rescueOnsetlab(input: RescueInput): RescueOutput {
  const none: RescueOutput = { steps: [...input.steps], rescues: [], patched: [] };
  const failed = input.outcomes.every((outcome) => outcome.status !== "ok" || looksLikeOnsetlabError(outcome.text));
  if (input.steps.length > 0 && !failed) return none;
  const info = missingInfo(input.outcomes);
  const step = info && input.steps.find((candidate) => candidate.id === info.id);
  if (!info || !step) return none;
  const args = { ...step.args };
  const records: RescueRecord[] = [];
  for (const name of info.names) {
    const value = onsetlabParamValue(input.query, name);
    if (value === undefined) continue;
    args[name] = value;
    records.push(rescueRecord(step, name, value, `onsetlab-${name}`, input.round));
  }
  if (records.length === 0) return none;
  const stillMissing = info.names.filter((name) => !(name in args));
  const { error: _error, missing: _missing, ...rest } = step;
  const patched: PlanStep = stillMissing.length === 0 ? { ...rest, args } : { ...step, args, missing: stillMissing };
  return {
    steps: input.steps.map((candidate) => (candidate.id === step.id ? patched : candidate)),
    rescues: records,
    patched: [step.id],
  };
}
