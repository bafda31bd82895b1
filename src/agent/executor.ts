/**
 * Executes a ReWOO plan: resolves `#En` references, runs independent steps together (one wave at a
 * time), and turns every failure into a string. Retries and schema validation belong to the ToolHost.
 */

import { resolveReferences } from "./references.ts";
import type { ToolRunner } from "./tool-runner.ts";
import type { ExecutedStep, PlanStep } from "./types.ts";
import { groupIntoWaves, type WaveInput } from "./waves.ts";

/**
 * Tool calls of one query in flight at once. Independent steps of a wave run together, but a plan of
 * hundreds of steps must not start hundreds of calls (each holds a connection's request and a listener).
 */
export const MAX_CALLS_IN_FLIGHT = 8;

export interface StepOutcome extends ExecutedStep {
  /** What later steps' references read: the structured result, or the text. */
  value?: unknown;
  /** Result text, or the error text. */
  text: string;
}

export interface ExecutionInput {
  steps: readonly PlanStep[];
  runner: ToolRunner;
  round: number;
  /** Successful outcomes of an earlier round: reused, never called twice. */
  reuse?: ReadonlyMap<string, StepOutcome>;
  /** Field paths in references (default); off: a reference is the earlier result's whole text. */
  fieldRefs?: boolean;
  /** Called as each wave starts, with its step ids. */
  onWave?: (steps: string[]) => void;
}

export interface ExecutionOutput {
  /** One per step, in plan order. */
  outcomes: StepOutcome[];
  waves: string[][];
  ok: boolean;
}

export async function executePlan(input: ExecutionInput): Promise<ExecutionOutput> {
  const { waves, cyclic } = groupIntoWaves(orderWrites(input.steps, (tool) => input.runner.isWrite(tool)));
  const byId = new Map(input.steps.map((step) => [step.id, step]));
  const done = new Map<string, StepOutcome>();
  for (const wave of waves) {
    input.onWave?.(wave);
    const results = await mapBounded(wave, MAX_CALLS_IN_FLIGHT, (id) => runStep(byId.get(id) as PlanStep, done, input));
    for (const outcome of results) done.set(outcome.id, outcome);
  }
  for (const id of cyclic) {
    const step = byId.get(id) as PlanStep;
    done.set(id, skippedOutcome(step, input.round, "circular reference between steps"));
  }
  const outcomes = input.steps.map((step) => done.get(step.id) as StepOutcome);
  return { outcomes, waves, ok: outcomes.every((outcome) => outcome.status === "ok") };
}

/** `run` over `items` with at most `limit` pending at once, started in order; results in input order. */
async function mapBounded<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Wave inputs with writes kept in plan order: a write waits for every step before it, and every step
 * after a write waits for it. References show data dependencies only; "create the branch, then put a
 * file on it" depends on state, and running it concurrently would race. Reads between writes still
 * run together. (Ordering edges only: a failed earlier write does not skip a later step.)
 */
export function orderWrites(steps: readonly PlanStep[], isWrite: (tool: string) => boolean): WaveInput[] {
  let lastWrite: string | undefined;
  const before: string[] = [];
  return steps.map((step) => {
    const write = isWrite(step.tool);
    const order = write ? [...before] : lastWrite ? [lastWrite] : [];
    before.push(step.id);
    if (write) lastWrite = step.id;
    return { id: step.id, dependsOn: [...new Set([...step.dependsOn, ...order])] };
  });
}

async function runStep(
  step: PlanStep,
  done: ReadonlyMap<string, StepOutcome>,
  input: ExecutionInput,
): Promise<StepOutcome> {
  const earlier = input.reuse?.get(step.id);
  if (earlier?.status === "ok") return { ...earlier, round: input.round, reused: true };
  if (step.error) return rejectedOutcome(step, step.error, input.round);
  const failedDependency = step.dependsOn.find((id) => done.get(id)?.status !== "ok");
  if (failedDependency) return skippedOutcome(step, input.round, `depends on ${failedDependency}, which failed`);

  const fieldRefs = input.fieldRefs ?? true;
  const values = new Map([...done].map(([id, outcome]) => [id, fieldRefs ? outcome.value : outcome.text]));
  const resolved = resolveReferences(step.args, values, fieldRefs);
  if (resolved.problems.length > 0) {
    return skippedOutcome(step, input.round, `cannot resolve references: ${resolved.problems.join("; ")}`);
  }
  const record = await input.runner.call({
    stage: "executor",
    tool: step.tool,
    args: resolved.value as Record<string, unknown>,
    stepId: step.id,
    round: input.round,
    prepare: true,
    guarded: false,
  });
  const { text } = record;
  const base = { id: step.id, tool: step.tool, round: input.round, callSeq: record.seq, text };
  if (record.ok) return { ...base, status: "ok", value: record.data ?? text };
  const missing = record.error?.missing?.length ? record.error.missing : missingFromMessage(text);
  return { ...base, status: "error", error: text, ...(missing.length > 0 ? { missing } : {}) };
}

/** A step validation rejected: not run, with the parameters it lacks. */
export function rejectedOutcome(step: PlanStep, error: string, round: number): StepOutcome {
  return { ...skippedOutcome(step, round, error), ...(step.missing ? { missing: step.missing } : {}) };
}

function skippedOutcome(step: PlanStep, round: number, error: string): StepOutcome {
  return { id: step.id, tool: step.tool, round, status: "skipped", error, text: `ERROR: ${error}` };
}

/** Servers that do not list missing parameters in error data still name them in the message. */
export function missingFromMessage(message: string): string[] {
  const patterns = [
    /missing required (?:parameter|property|argument|field)s?:?\s*['"`]?([\w.-]+)/gi,
    /must have required property ['"`]([\w.-]+)/gi,
    /['"`]?([\w.-]+)['"`]? is (?:a )?required/gi,
  ];
  const found = new Set<string>();
  for (const pattern of patterns) for (const match of message.matchAll(pattern)) found.add(match[1] as string);
  return [...found];
}
