/**
 * OnsetLab's parameter rescue (`rescue: onsetlab`), kept to measure this project's wider one against:
 * it runs only when the whole plan failed, patches the one step named by the first "missing param"
 * error, and knows seven kinds of parameter by their lower-cased names — title, body, owner, repo,
 * method, issue/pull number, query. A camelCase name such as `pullNumber` lower-cases to none of them,
 * so it is never filled (as in OnsetLab).
 */

import type { ToolDefinition } from "../mcp/types.ts";
import type { StepOutcome } from "./executor.ts";
import { missingRequired } from "./plan-parser.ts";
import type { RescueInput, RescueOutput } from "./rescue.ts";
import { findTool, toolProperties } from "./tool-schema.ts";
import type { PlanStep, RescueRecord } from "./types.ts";

const QUOTED = /"([^"]+)"|'([^']+)'/g;
const OWNER_REPO = /\b([A-Za-z0-9][\w.-]*)\/([A-Za-z0-9][\w.-]*)\b/;

/** The method verbs, matched as substrings of the lower-cased query, in this order. */
const METHOD_VERBS: [string, string[]][] = [
  ["create", ["create", "new", "add", "make", "open"]],
  ["update", ["update", "edit", "modify", "change", "close"]],
  ["get", ["list", "show", "get", "find", "fetch"]],
];

type Kind = (query: string) => unknown;

const KINDS: Record<string, Kind> = {
  title: (query) =>
    /\b(?:titled|called|named)\s+["']([^"']+)["']/i.exec(query)?.[1] ??
    /\btitle:\s*["']([^"']+)["']/i.exec(query)?.[1] ??
    /\btitled\s+(\S+)/i.exec(query)?.[1] ??
    lastQuoted(query),
  body: (query) => /\b(?:with body|body|saying|description):?\s+["']([^"']+)["']/i.exec(query)?.[1],
  owner: (query) => OWNER_REPO.exec(query)?.[1],
  repo: (query) => OWNER_REPO.exec(query)?.[2],
  method: (query) => {
    const lowered = query.toLowerCase();
    return METHOD_VERBS.find(([, verbs]) => verbs.some((verb) => lowered.includes(verb)))?.[0];
  },
  issue_number: issueNumber,
  pull_number: issueNumber,
  query: (query) =>
    firstQuoted(query) ?? /\b(?:search|find|look up)\s+(?:for\s+)?(.+?)[.?!]*$/i.exec(query)?.[1]?.trim(),
};

function issueNumber(query: string): number | undefined {
  const found = /#(\d+)/.exec(query)?.[1] ?? /\b(?:issue|pr|pull request)\s+#?(\d+)/i.exec(query)?.[1];
  return found === undefined ? undefined : Number(found);
}

function quotedValues(query: string): string[] {
  return [...query.matchAll(QUOTED)].map((match) => match[1] ?? match[2] ?? "");
}

function firstQuoted(query: string): string | undefined {
  return quotedValues(query)[0];
}

function lastQuoted(query: string): string | undefined {
  return quotedValues(query).at(-1);
}

export function rescueOnsetlab(input: RescueInput): RescueOutput {
  const none: RescueOutput = { steps: [...input.steps], rescues: [], patched: [] };
  if (input.outcomes.some((outcome) => outcome.status === "ok")) return none;
  const failure = input.outcomes.find(
    (outcome) => /missing (required )?param/i.test(outcome.error ?? "") && outcome.missing?.length,
  );
  const step = failure && input.steps.find((candidate) => candidate.id === failure.id);
  const tool = step && findTool(input.tools, step.tool);
  if (!failure || !step || !tool) return none;
  const patched = patchStep(step, tool, failure, input);
  if (!patched) return none;
  return {
    steps: input.steps.map((candidate) => (candidate.id === step.id ? patched.step : candidate)),
    rescues: patched.records,
    patched: [step.id],
  };
}

function patchStep(
  step: PlanStep,
  tool: ToolDefinition,
  failure: StepOutcome,
  input: RescueInput,
): { step: PlanStep; records: RescueRecord[] } | undefined {
  const properties = Object.keys(toolProperties(tool));
  const args = { ...step.args };
  const records: RescueRecord[] = [];
  for (const reported of failure.missing ?? []) {
    const name = reported.toLowerCase();
    const value = KINDS[name]?.(input.query);
    const param = properties.find((property) => property.toLowerCase() === name);
    if (value === undefined || value === "" || !param) continue;
    args[param] = value;
    records.push({ stepId: step.id, tool: step.tool, param, value, pattern: `onsetlab-${name}`, round: input.round });
  }
  if (records.length === 0) return undefined;
  const stillMissing = missingRequired(tool, args, "strict");
  const patched: PlanStep = { id: step.id, tool: step.tool, args, dependsOn: step.dependsOn, raw: step.raw };
  if (stillMissing.length > 0) {
    patched.missing = stillMissing;
    patched.error = `missing required parameter(s): ${stillMissing.join(", ")}`;
  }
  return { step: patched, records };
}
