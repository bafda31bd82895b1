/**
 * A written plan step's arguments against a tool's schema and a gold call: which parameter each
 * argument fills, which gold values it gets right, which keys the tool does not declare. Shared by
 * the gold pairing (plan-gold-pairing.ts) and the per-step error checks (planner-output.ts).
 */

import { fromJson, type PyValue } from "../../python/value.ts";
import type { ExpectedCall } from "../dataset/types.ts";
import { type ArgVerdict, checkArgValue, type ExpectedArgs, expectedArgsFromJson } from "./arg-match.ts";
import type { PlanTextStep } from "./plan-text.ts";
import type { ToolCatalog } from "./tool-catalog.ts";

const REFERENCE = /#E\d/;

/** A step with its arguments keyed by parameter (named ones, then positional ones mapped onto the rest). */
export interface StepArgs {
  step: PlanTextStep;
  args: Record<string, unknown>;
}

/** Positional arguments fill the parameters not named, required ones first, as the plan parser maps them. */
export function stepArgs(step: PlanTextStep, catalog: ToolCatalog): StepArgs {
  const args: Record<string, unknown> = { ...step.named };
  if (step.positional.length > 0 && catalog.has(step.tool)) {
    const required = catalog.required(step.tool);
    const order = [...required, ...catalog.params(step.tool).filter((name) => !required.includes(name))];
    const named = new Set(Object.keys(step.named).map(looseKey));
    const open = order.filter((name) => !named.has(looseKey(name)));
    step.positional.forEach((value, index) => {
      const name = open[index];
      if (name !== undefined) args[name] = value;
    });
  }
  return { step, args };
}

/** The key the step gave a parameter under: its exact name, else any spelling of it. */
export function keyFor({ args }: StepArgs, param: string): string | undefined {
  if (Object.hasOwn(args, param)) return param;
  const loose = looseKey(param);
  return Object.keys(args).find((given) => looseKey(given) === loose);
}

/** Named keys the tool's schema does not declare (none when the schema declares no parameter). */
export function undeclaredKeys({ step }: StepArgs, tool: string, catalog: ToolCatalog): string[] {
  const declared = catalog.params(tool);
  if (declared.length === 0) return [];
  return Object.keys(step.named).filter((key) => !declared.includes(key));
}

/**
 * The matcher's verdict on each gold parameter the step gives a judgeable value for — read, not a
 * `#E` reference (resolved only at run time), not empty — against the gold call's acceptable values.
 */
export function judgedValues(
  target: StepArgs,
  gold: ExpectedCall,
  catalog: ToolCatalog,
  skip: (param: string) => boolean = () => false,
): Map<string, ArgVerdict> {
  const verdicts = new Map<string, ArgVerdict>();
  const properties = catalog.callSchema(gold.tool)?.properties;
  for (const [param, acceptable] of expectedArgsFromJson(gold.args)) {
    const key = keyFor(target, param);
    if (key === undefined || skip(param) || target.step.unreadable.includes(key)) continue;
    const value = target.args[key];
    if (isEmpty(value) || holdsReference(value)) continue;
    verdicts.set(param, checkArgValue(param, fromJson(value), acceptable, properties?.[param], "json"));
  }
  return verdicts;
}

/**
 * How well a step fits a gold call: right values of the parameters the gold call requires (an
 * omittable one, often `{"any": true}`, tells calls apart no better than chance), minus keys the gold
 * call's tool does not take.
 */
export function goldFit(target: StepArgs, gold: ExpectedCall, catalog: ToolCatalog): number {
  const expected = expectedArgsFromJson(gold.args);
  let right = 0;
  for (const verdict of judgedValues(target, gold, catalog, (param) => omittable(expected, param)).values()) {
    if (verdict.valid) right++;
  }
  return right - undeclaredKeys(target, gold.tool, catalog).length;
}

/** How many parameters the gold call requires (no `""` among their alternatives) the step leaves out or empty. */
export function lackedParams(target: StepArgs, gold: ExpectedCall): number {
  const expected = expectedArgsFromJson(gold.args);
  return [...expected.keys()].filter((param) => {
    if (omittable(expected, param)) return false;
    const key = keyFor(target, param);
    return key === undefined || isEmpty(target.args[key]);
  }).length;
}

function omittable(expected: ExpectedArgs, param: string): boolean {
  return expected.get(param)?.some(isOmitMarker) ?? true;
}

/** `""` among a parameter's alternatives: it may be omitted. */
export function isOmitMarker(alternative: PyValue): boolean {
  return alternative.kind === "str" && alternative.value === "";
}

export function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === "";
}

function holdsReference(value: unknown): boolean {
  if (typeof value === "string") return REFERENCE.test(value);
  if (Array.isArray(value)) return value.some(holdsReference);
  if (value !== null && typeof value === "object") return Object.values(value).some(holdsReference);
  return false;
}

/** A spelling-insensitive form of a key: `issueNumber`, `issue_number` → `issuenumber`. */
export function looseKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, "");
}
