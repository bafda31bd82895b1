/**
 * OnsetLab's plan parser (`parser: onsetlab`; `planner.py@1f2d742` `plan` after the model answered):
 * `#E1 = ` put in front unless the answer starts with `#E1`, then line by line. Its quirks are kept,
 * since they are what OnsetLab's planner did with a completion:
 * - `word:digit` is rewritten to `word=digit` across the whole answer (`T13:00:00Z` → `T13=00=00Z`);
 * - a step must start its line (no call after prose, none spread over lines, `1.` is read as a step);
 * - the greedy `\((.*)\)` takes everything up to the line's last `)`;
 * - a quoted value ends at the next quote of its kind (`\"` ends it); `None`/`null` values are dropped;
 * - positional arguments are double-quoted strings only, mapped in the tool's parameter order
 *   (a built-in's JSON Schema keys — `type`, `properties` … — for a built-in);
 * - duplicates are the same tool with the same printed values (`1` repeats `"1"`);
 * - tool names match case-insensitively, against the tools the planner was shown only.
 */

import type { JsonSchema, ToolDefinition } from "../tool-protocol/types.ts";
import { PY_WORD_CHAR } from "./onsetlab-text.ts";
import { isBuiltin, requiredParams, toolProperties } from "./tool-schema.ts";
import type { ParsedPlan, PlanStep } from "./types.ts";

const W = PY_WORD_CHAR;
const COLON_QUOTE = new RegExp(`(${W}+):\\s*"`, "gu");
const COLON_DIGIT = new RegExp(`(${W}+):\\s*(\\d)`, "gu");
const HEADED = new RegExp(`^#E(\\d+)\\s*=\\s*([${W.slice(1, -1)}-]+)\\s*\\(([^\\n]*)\\)`, "u");
const BARE = new RegExp(`^([${W.slice(1, -1)}-]+)\\s*\\(([^\\n]*)\\)`, "u");
const PARAM_NAME = new RegExp(`^(${W}+)\\s*=\\s*`, "u");
const UNQUOTED = /^[^,)\s]+/u;
const NOT_TOOLS = new Set(["result", "note", "explanation", "answer"]);
const NOTHING = new Set(["none", "null", "undefined"]);

/** The completion (what the model wrote after `#E1 =`, already cut at the stops) → validated steps. */
export function parseOnsetlabPlan(completion: string, tools: readonly ToolDefinition[]): ParsedPlan {
  const answer = completion.trim();
  const text = answer.startsWith("#E1") ? answer : `#E1 = ${answer}`;
  const steps = deduplicate(readSteps(text)).map((step) => validateOnsetlabStep(step, tools));
  return { steps, notes: [] };
}

function readSteps(response: string): PlanStep[] {
  const cleaned = response
    .replaceAll("expression*=", "expression=")
    .replaceAll("*=", "=")
    .replace(COLON_QUOTE, '$1="')
    .replace(COLON_DIGIT, "$1=$2");
  const steps: PlanStep[] = [];
  let counter = 1;
  for (const rawLine of cleaned.trim().split("\n")) {
    let line = rawLine.trim();
    if (line === "" || !line.includes("(") || !line.includes(")")) continue;
    line = line.replace(/^\d+\.\s*/u, "").replace(/^(#E\d+)\s*=\s*#E\d+\s*=/u, "$1 =");
    const headed = HEADED.exec(line);
    let number: number;
    let tool: string;
    let params: string;
    if (headed) {
      number = Number(headed[1]);
      tool = headed[2] as string;
      params = headed[3] as string;
    } else {
      const bare = BARE.exec(line);
      if (!bare || NOT_TOOLS.has((bare[1] as string).toLowerCase())) continue;
      number = counter;
      tool = bare[1] as string;
      params = bare[2] as string;
    }
    steps.push({
      id: `#E${number}`,
      tool,
      args: parseParams(params),
      dependsOn: params.match(/#E\d+/g) ?? [],
      raw: line,
    });
    counter = Math.max(counter, number) + 1;
  }
  return steps;
}

function parseParams(text: string): Record<string, unknown> {
  const source = text.trim();
  const params: Record<string, unknown> = {};
  if (source === "") return params;
  let at = 0;
  while (at < source.length) {
    while (at < source.length && " ,\t\n".includes(source[at] as string)) at += 1;
    if (at >= source.length) break;
    const name = PARAM_NAME.exec(source.slice(at));
    if (!name) break;
    at += name[0].length;
    if (at >= source.length) break;
    const key = name[1] as string;
    const first = source[at] as string;
    if (first === '"' || first === "'") {
      let end = source.indexOf(first, at + 1);
      if (end === -1) end = source.length;
      const value = source.slice(at + 1, end);
      at = end + 1;
      if (!NOTHING.has(value.toLowerCase())) params[key] = value;
    } else if (first === "[" || first === "{") {
      const { text: value, end } = bracket(source, at, first, first === "[" ? "]" : "}");
      at = end;
      params[key] = jsonOrText(value);
    } else {
      const unquoted = UNQUOTED.exec(source.slice(at));
      if (!unquoted) {
        at += 1;
        continue;
      }
      at += unquoted[0].length;
      const value = unquoted[0].trim();
      if (!NOTHING.has(value.toLowerCase())) params[key] = scalar(value);
    }
  }
  if (Object.keys(params).length > 0) return params;
  const quoted = [...source.matchAll(/"([^"]*)"/g)].map((match) => match[1] as string);
  if (quoted.length > 0) {
    for (const [index, value] of quoted.entries()) params[`_positional_${index}`] = value;
  } else if (!source.includes("=")) params._positional_0 = stripQuotes(source);
  return params;
}

function scalar(value: string): unknown {
  if (value.startsWith("#E")) return value;
  const lower = value.toLowerCase();
  if (lower === "true") return true;
  if (lower === "false") return false;
  if (/^-?\d+$/.test(value) || /^-?\d+\.\d+$/.test(value)) return Number(value);
  return value;
}

function jsonOrText(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** Python's `str.strip('"\'')`. */
function stripQuotes(value: string): string {
  return value.replace(/^["']+|["']+$/g, "");
}

/** From an opening bracket to its balanced close (skipping double-quoted strings), or to the end. */
function bracket(source: string, start: number, open: string, close: string): { text: string; end: number } {
  let depth = 0;
  for (let at = start; at < source.length; at += 1) {
    const char = source[at];
    if (char === open) depth += 1;
    else if (char === close) {
      depth -= 1;
      if (depth === 0) return { text: source.slice(start, at + 1), end: at + 1 };
    } else if (char === '"') {
      at += 1;
      while (at < source.length && source[at] !== '"') at += source[at] === "\\" ? 2 : 1;
    }
  }
  return { text: source.slice(start), end: source.length };
}

/** Same tool, same values as Python prints them (so `1` and `"1"` are one step); ids renumbered. */
function deduplicate(steps: PlanStep[]): PlanStep[] {
  const seen = new Set<string>();
  const unique = steps.filter((step) => {
    const values = Object.entries(step.args)
      .map(([key, value]) => [key, pyStr(value)])
      .sort(([a], [b]) => ((a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0));
    const key = JSON.stringify([step.tool, values]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique.map((step, index) => ({ ...step, id: `#E${index + 1}` }));
}

/** Python's `str(value)` for the values a plan holds. */
function pyStr(value: unknown): string {
  if (typeof value === "string") return value;
  return pyRepr(value);
}

function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "string") return `'${value}'`;
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([key, item]) => `'${key}': ${pyRepr(item)}`)
    .join(", ")}}`;
}

/**
 * OnsetLab's `_validate_steps` on one step: the tool by exact then case-insensitive name among `tools`
 * (built-ins first, as its planner holds them), positional arguments mapped, required parameters present.
 */
export function validateOnsetlabStep(step: PlanStep, tools: readonly ToolDefinition[]): PlanStep {
  const tool = findOnsetlabTool(step.tool, tools);
  if (!tool) return { ...step, error: `Tool '${step.tool}' not found.` };
  const params = onsetlabParameters(tool);
  const args = mapPositional(params, step.args);
  const missing = onsetlabRequired(tool, params).filter((name) => !(name in args));
  const validated: PlanStep = { ...step, tool: tool.name, args };
  if (missing.length === 0) return validated;
  const listed = missing.map((name) => `'${name}'`).join(", ");
  return { ...validated, missing, error: `Tool '${tool.name}' missing required params: [${listed}]` };
}

function findOnsetlabTool(name: string, tools: readonly ToolDefinition[]): ToolDefinition | undefined {
  const ordered = [...tools.filter(isBuiltin), ...tools.filter((tool) => !isBuiltin(tool))];
  const lower = name.toLowerCase();
  return ordered.find((tool) => tool.name === name) ?? ordered.find((tool) => tool.name.toLowerCase() === lower);
}

/**
 * The parameters as OnsetLab's tool objects give them: a server tool's properties, each marked required
 * or not; a built-in's whole JSON Schema, whose keys (`type`, `properties` …) then stand for parameters.
 */
function onsetlabParameters(tool: ToolDefinition): Record<string, unknown> {
  if (isBuiltin(tool)) return tool.inputSchema as Record<string, unknown>;
  const required = new Set(requiredParams(tool));
  return Object.fromEntries(
    Object.entries(toolProperties(tool)).map(([name, schema]: [string, JsonSchema]) => [
      name,
      { ...schema, required: required.has(name) },
    ]),
  );
}

function onsetlabRequired(tool: ToolDefinition, params: Record<string, unknown>): string[] {
  if (isBuiltin(tool) && Array.isArray(params.required)) return requiredParams(tool);
  return Object.entries(params)
    .filter(([, details]) => isMarkedRequired(details))
    .map(([name]) => name);
}

function isMarkedRequired(details: unknown): boolean {
  return typeof details === "object" && details !== null && Boolean((details as { required?: unknown }).required);
}

/** `_positional_0`, `_positional_1` … onto the parameters marked required, then the others, in order. */
function mapPositional(params: Record<string, unknown>, given: Record<string, unknown>): Record<string, unknown> {
  const args = { ...given };
  const positional: unknown[] = [];
  for (let index = 0; `_positional_${index}` in args; index += 1) {
    positional.push(args[`_positional_${index}`]);
    delete args[`_positional_${index}`];
  }
  if (positional.length === 0) return args;
  const names = Object.keys(params);
  const order = [
    ...names.filter((name) => isMarkedRequired(params[name])),
    ...names.filter((name) => !isMarkedRequired(params[name])),
  ];
  positional.forEach((value, index) => {
    const name = order[index];
    if (name !== undefined) args[name] = value;
  });
  return args;
}
