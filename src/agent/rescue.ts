/**
 * Rescue: a step failed for lack of a required parameter → find the value in the query (see
 * rescue-patterns.ts) and patch the step, so the same plan can run again with no model call.
 */

import type { ToolDefinition } from "../tool-protocol/types.ts";
import type { StepOutcome } from "./executor.ts";
import { missingRequired } from "./plan-parser.ts";
import { extractValue } from "./rescue-patterns.ts";
import { looseKey } from "./text.ts";
import { findTool, toolProperties } from "./tool-schema.ts";
import type { PlanStep, RescueRecord, Validation } from "./types.ts";

export interface RescueInput {
  query: string;
  steps: readonly PlanStep[];
  outcomes: readonly StepOutcome[];
  tools: readonly ToolDefinition[];
  /** The execution round the patched plan will run in. */
  round: number;
  /** How required parameters are checked after patching (default `lenient`). */
  validation?: Validation;
}

export interface RescueOutput {
  steps: PlanStep[];
  rescues: RescueRecord[];
  /** Ids of the steps that were patched; empty when nothing could be rescued. */
  patched: string[];
}

/** What a rescue records for one value it filled. */
export function rescueRecord(
  step: PlanStep,
  param: string,
  value: unknown,
  pattern: string,
  round: number,
): RescueRecord {
  return { stepId: step.id, tool: step.tool, param, value, pattern, round };
}

export function rescuePlan(input: RescueInput): RescueOutput {
  const rescues: RescueRecord[] = [];
  const patched: string[] = [];
  const failures = new Map(
    input.outcomes.filter((outcome) => outcome.status !== "ok" && outcome.missing?.length).map((o) => [o.id, o]),
  );
  const steps = input.steps.map((step) => {
    const failure = failures.get(step.id);
    const tool = findTool(input.tools, step.tool);
    if (!failure || !tool) return step;
    const result = rescueStep(step, tool, failure.missing ?? [], input);
    if (!result) return step;
    patched.push(step.id);
    rescues.push(...result.records);
    return result.step;
  });
  return { steps, rescues, patched };
}

/** All missing values found → the patched step; any one not found → undefined (the step would fail again). */
function rescueStep(
  step: PlanStep,
  tool: ToolDefinition,
  missing: readonly string[],
  input: RescueInput,
): { step: PlanStep; records: RescueRecord[] } | undefined {
  const properties = toolProperties(tool);
  const args = { ...step.args };
  const records: RescueRecord[] = [];
  for (const reported of missing) {
    const param = Object.keys(properties).find((name) => looseKey(name) === looseKey(reported));
    if (!param) return undefined; // nested or unknown: not something the query can fill
    if (hasValue(args[param])) continue; // already filled, e.g. by an earlier pattern's `also`
    const found = extractValue({ query: input.query, param, schema: properties[param] ?? {}, args });
    if (!found) return undefined;
    for (const [name, value] of [[param, found.value] as const, ...Object.entries(found.also ?? {})]) {
      args[name] = value;
      records.push(rescueRecord(step, name, value, found.pattern, input.round));
    }
  }
  const stillMissing = missingRequired(tool, args, input.validation);
  const otherErrors = (step.error ?? "")
    .split("; ")
    .filter((part) => part && !part.startsWith("missing required parameter"));
  const patched: PlanStep = { id: step.id, tool: step.tool, args, dependsOn: step.dependsOn, raw: step.raw };
  if (stillMissing.length > 0) patched.missing = stillMissing;
  if (otherErrors.length > 0) patched.error = otherErrors.join("; ");
  return { step: patched, records };
}

function hasValue(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "";
}
