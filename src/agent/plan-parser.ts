/**
 * Turns planner output into steps. Tolerant by design: prose around the calls, positional arguments,
 * Python literals, quotes of either kind, repeated steps. Never throws; a step that cannot be run
 * carries an `error` and the executor skips it.
 */

import { canonicalJson } from "../json.ts";
import type { ToolDefinition } from "../tool-protocol/types.ts";
import { parseCallArguments } from "./call-syntax.ts";
import { findReferences, renameReferences } from "./references.ts";
import { looseKey } from "./text.ts";
import { findTool, parameterOrder, requiredParams } from "./tool-schema.ts";
import type { ParsedPlan, PlanStep, Validation } from "./types.ts";

const STEP_HEADER = /#E(\d+)\s*(?:=|:(?!\/))/g;
// Tried only where a word starts (the name begins at its first letter, as `1.get_me(`): trying every position
// inside a long word was quadratic.
const CALL_START = /(?<![\w.-])[\d.-]*([A-Za-z_][\w.-]*)\s*\(/g;

/**
 * Steps one plan may run, counted after duplicates are dropped. The planner's token budget fits about ten
 * real steps and the largest gold plan has five; a model that writes thousands has gone astray, and its
 * extra steps are simply not run (noted, not a parse failure).
 */
export const MAX_PLAN_STEPS = 16;

interface RawStep {
  index: number;
  tool: string;
  named: Record<string, unknown>;
  positional: unknown[];
  problems: string[];
  closed: boolean;
  raw: string;
  /** Index just after the call in the source text. */
  end: number;
}

export function parsePlan(
  text: string,
  tools: readonly ToolDefinition[],
  validation: Validation = "lenient",
): ParsedPlan {
  const notes: string[] = [];
  const known = new Set(tools.map((tool) => tool.name));
  let raws = readHeadedSteps(text, known);
  if (raws.length === 0) {
    raws = readBareCalls(text, known);
    if (raws.length > 0) notes.push("no #En headers: numbered the tool calls in order");
  }
  const numbered = renumberCollisions(raws, notes);
  const steps = capSteps(
    removeDuplicates(
      numbered.map(({ id, raw }) => toStep(id, raw, tools, notes, validation)),
      notes,
    ),
    notes,
  );
  const ids = new Set(steps.map((step) => step.id));
  return { steps: steps.map((step) => validateReferences(step, ids)), notes };
}

/**
 * `#En = tool(…)` steps; a header inside an earlier call's arguments is text, not a step. A header
 * followed by a list of calls (`#E1 = [a(x=1), b(y=2)]`, BFCL's and many models' habit) gives one
 * step per call, numbered on from the header's.
 */
function readHeadedSteps(text: string, known: ReadonlySet<string>): RawStep[] {
  const headers = [...text.matchAll(STEP_HEADER)];
  const steps: RawStep[] = [];
  let consumed = 0;
  let highest = 0;
  headers.forEach((header, position) => {
    if (header.index < consumed) return;
    const bodyStart = header.index + header[0].length;
    const call = pickCall(text, bodyStart, headers[position + 1]?.index ?? text.length, known);
    if (!call) return;
    let parsed = readCall(text, call.name, call.open, Number(header[1]));
    highest = Math.max(highest, parsed.index);
    steps.push(parsed);
    for (let next = nextListedCall(text, parsed.end); next; next = nextListedCall(text, parsed.end)) {
      highest += 1;
      parsed = readCall(text, next.name, next.open, highest);
      steps.push(parsed);
    }
    consumed = parsed.end;
  });
  return steps;
}

const LISTED_CALL = /\s*,\s*([A-Za-z_][\w.-]*)\s*\(/y;

/** The call right after a `, ` that follows a call (the next element of a list of calls). */
function nextListedCall(text: string, after: number): { name: string; open: number } | undefined {
  LISTED_CALL.lastIndex = after;
  const match = LISTED_CALL.exec(text);
  return match ? { name: match[1] ?? "", open: after + match[0].length - 1 } : undefined;
}

/** The call inside a step's text: the first known tool, else the first thing that looks like a call. */
function pickCall(
  text: string,
  from: number,
  to: number,
  known: ReadonlySet<string>,
): { name: string; open: number } | undefined {
  const region = text.slice(from, to);
  const candidates = [...region.matchAll(CALL_START)].map((match) => ({
    name: match[1] ?? "",
    open: from + match.index + match[0].length - 1,
  }));
  return candidates.find((candidate) => known.has(candidate.name)) ?? candidates[0];
}

/** No headers at all: every `knownTool(` call in the text, numbered in order. */
function readBareCalls(text: string, known: ReadonlySet<string>): RawStep[] {
  const steps: RawStep[] = [];
  let consumed = 0;
  for (const match of text.matchAll(CALL_START)) {
    const name = match[1] ?? "";
    if (match.index + match[0].indexOf(name) < consumed || !known.has(name)) continue;
    const open = match.index + match[0].length - 1;
    const parsed = readCall(text, name, open, steps.length + 1);
    steps.push(parsed);
    consumed = parsed.end;
  }
  return steps;
}

function readCall(text: string, tool: string, open: number, index: number): RawStep {
  const call = parseCallArguments(text, open);
  return {
    index,
    tool,
    named: call.named,
    positional: call.positional,
    problems: call.problems,
    closed: call.closed,
    raw: `${tool}${text.slice(open, call.end)}`,
    end: call.end,
  };
}

/** A step number used twice for different calls: the later one gets the next free number. */
function renumberCollisions(raws: RawStep[], notes: string[]): { id: string; raw: RawStep }[] {
  const used = new Set<number>();
  let highest = raws.reduce((max, raw) => Math.max(max, raw.index), 0);
  return raws.map((raw) => {
    let index = raw.index;
    if (used.has(index)) {
      highest += 1;
      notes.push(`#E${index} appeared twice: the second is #E${highest}`);
      index = highest;
    }
    used.add(index);
    return { id: `#E${index}`, raw };
  });
}

function toStep(
  id: string,
  raw: RawStep,
  tools: readonly ToolDefinition[],
  notes: string[],
  validation: Validation,
): PlanStep {
  const tool = findTool(tools, raw.tool);
  const { args, extra } = tool ? mapPositional(raw, tool) : { args: { ...raw.named }, extra: 0 };
  const step: PlanStep = { id, tool: raw.tool, args, dependsOn: findReferences(args), raw: raw.raw };
  const errors: string[] = [];
  if (!tool) errors.push(`unknown tool "${raw.tool}"`);
  else {
    if (extra > 0) errors.push(`${extra} positional argument(s) beyond the tool's parameters`);
    const missing = missingRequired(tool, args, validation);
    if (missing.length > 0) {
      step.missing = missing;
      errors.push(missingParamsError(missing));
    }
  }
  // An unclosed call was cut off (token limit): its last value may be partial, so it is not run.
  if (!raw.closed) errors.push(`syntax: ${raw.problems.join("; ")}`);
  else if (raw.problems.length > 0) notes.push(`${id}: ${raw.problems.join("; ")}`);
  if (errors.length > 0) step.error = errors.join("; ");
  return step;
}

/** Positional arguments fill the parameters not named, in order: required first, then the rest. */
function mapPositional(raw: RawStep, tool: ToolDefinition): { args: Record<string, unknown>; extra: number } {
  const args = { ...raw.named };
  const given = new Set(Object.keys(args).map(looseKey));
  const open = parameterOrder(tool).filter((name) => !given.has(looseKey(name)));
  raw.positional.forEach((value, index) => {
    const name = open[index];
    if (name !== undefined) args[name] = value;
  });
  return { args, extra: Math.max(0, raw.positional.length - open.length) };
}

export function missingParamsError(missing: readonly string[]): string {
  return `missing required parameter(s): ${missing.join(", ")}`;
}

/**
 * Required parameters not present under any spelling (`issueNumber` counts for `issue_number`); with
 * `strict` (OnsetLab) only under the schema's exact spelling, checked before any renaming could help.
 */
export function missingRequired(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  validation: Validation = "lenient",
): string[] {
  const key = validation === "strict" ? (name: string) => name : looseKey;
  const given = new Set(
    Object.entries(args)
      .filter(([, value]) => value !== undefined && value !== null && value !== "")
      .map(([name]) => key(name)),
  );
  return requiredParams(tool).filter((name) => !given.has(key(name)));
}

function removeDuplicates(steps: PlanStep[], notes: string[]): PlanStep[] {
  const kept: PlanStep[] = [];
  const byCall = new Map<string, string>();
  // A dropped step's id → the earlier step it repeats (always a kept one, so one lookup resolves it).
  const renames = new Map<string, string>();
  for (const original of steps) {
    const args = renames.size > 0 ? (renameReferences(original.args, renames) as PlanStep["args"]) : original.args;
    const step = { ...original, args, dependsOn: findReferences(args) };
    const key = `${step.tool}(${canonicalJson(step.args)})`;
    const earlier = byCall.get(key);
    if (earlier !== undefined) {
      notes.push(`${step.id} repeats ${earlier}: dropped`);
      renames.set(step.id, earlier);
      continue;
    }
    byCall.set(key, step.id);
    kept.push(step);
  }
  return kept;
}

function capSteps(steps: PlanStep[], notes: string[]): PlanStep[] {
  if (steps.length <= MAX_PLAN_STEPS) return steps;
  const first = steps[MAX_PLAN_STEPS] as PlanStep;
  notes.push(
    `${steps.length - MAX_PLAN_STEPS} steps past the first ${MAX_PLAN_STEPS} (from ${first.id}): dropped, not run`,
  );
  return steps.slice(0, MAX_PLAN_STEPS);
}

function validateReferences(step: PlanStep, ids: ReadonlySet<string>): PlanStep {
  const problems = step.dependsOn.flatMap((id) => {
    if (id === step.id) return [`${id} refers to itself`];
    return ids.has(id) ? [] : [`unknown reference ${id}`];
  });
  if (problems.length === 0) return step;
  return { ...step, error: [step.error, ...problems].filter(Boolean).join("; ") };
}
