/**
 * The ReWOO planner prompt (DESIGN §2): tools in call form, rules, skill rules, context, task, `#E1 =`.
 * `plan_steps: one` is OnsetLab's single-call prompt (it stops at a second step or a blank line);
 * `plan_examples: placeholders` shows OnsetLab's abstract tool lines and an examples line for the first
 * two tools instead of concrete values on every line.
 */

import { PROTOCOL } from "../models/protocol.ts";
import type { GenerationOptions } from "../models/types.ts";
import type { ToolDefinition } from "../tool-protocol/types.ts";
import { describeTool, describeToolAbstract, exampleCallAbstract } from "./tool-schema.ts";
import type { PlanExamples, PlanSteps } from "./types.ts";

export interface PlannerPromptInput {
  query: string;
  tools: readonly ToolDefinition[];
  /** The detected skill's rule block, when skills are on. */
  skillRules?: string;
  /** Extra facts for the task (e.g. today's date). */
  context?: string;
  /** A conversation's earlier turns (history.ts `historyText`): OnsetLab's CONTEXT section, before the skill rules. */
  history?: string;
  /** Defaults: this project's multi-step plan with concrete examples and field references. */
  steps?: PlanSteps;
  examples?: PlanExamples;
  fieldRefs?: boolean;
}

/** The prompt ends inside the first step, so the model's first token is a tool name. */
export const PLAN_PREFIX = PROTOCOL.planStep(1);

const OPENING: Record<PlanSteps, string> = {
  many: 'Plan the tool calls that complete the task. Write each step as #E<n> = tool(param="value", ...).',
  one: 'Choose the single tool call that completes the task and write it as #E1 = tool(param="value", ...).',
};

export function buildPlannerPrompt(input: PlannerPromptInput): string {
  const steps = input.steps ?? "many";
  const abstract = input.examples === "placeholders";
  const sections = [
    OPENING[steps],
    ["Tools:", ...input.tools.map(abstract ? describeToolAbstract : describeTool)].join("\n"),
    abstract && input.tools.length > 0
      ? ["Examples:", ...input.tools.slice(0, 2).map((tool) => `#E1 = ${exampleCallAbstract(tool)}`)].join("\n")
      : undefined,
    ["Rules:", ...plannerRules(steps, input.fieldRefs ?? true).map((rule) => `- ${rule}`)].join("\n"),
    input.history ? `${PROTOCOL.conversationSoFar}\n${input.history}` : undefined,
    input.skillRules,
    input.context ? `Context: ${input.context}` : undefined,
    `Task: ${input.query}\n${PLAN_PREFIX}`,
  ];
  return sections.filter((section): section is string => Boolean(section)).join("\n\n");
}

function plannerRules(steps: PlanSteps, fieldRefs: boolean): string[] {
  const common = [
    "Use only the tools above, with their exact names.",
    "Give every required parameter a concrete value taken from the task; never invent ids or names.",
  ];
  if (steps === "one") return [...common, "Write only that one call, no explanation."];
  return [
    ...common,
    fieldRefs
      ? "To use an earlier result, name its step: #E1 for the whole result, #E1.items[0].id for one field."
      : "To use an earlier result, name its step: #E1 stands for its whole result.",
    "Write only the steps, one per line, no explanations.",
  ];
}

/** Stop sequences per plan form; OnsetLab's end the plan at a second step or a blank line. */
const PLANNER_STOPS: Record<PlanSteps, string[]> = {
  many: ["\nTask:", "\n\n\n", "Observation:"],
  one: ["\n\n", "\n#E2", "Note:", "Explanation:", "---", "Task:"],
};

export function plannerOptions(maxTokens: number, steps: PlanSteps = "many"): GenerationOptions {
  return { temperature: 0, maxTokens, stop: PLANNER_STOPS[steps] };
}
