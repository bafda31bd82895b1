/** The ReWOO planner prompt (DESIGN §2): tools in call form, rules, skill rules, context, task, `#E1 =`. */

import type { ToolDefinition } from "../mcp/types.ts";
import type { GenerationOptions } from "../models/types.ts";
import { describeTool } from "./tool-schema.ts";

export interface PlannerPromptInput {
  query: string;
  tools: readonly ToolDefinition[];
  /** The detected skill's rule block, when skills are on. */
  skillRules?: string;
  /** Extra facts for the task (e.g. today's date). */
  context?: string;
}

/** The prompt ends inside the first step, so the model's first token is a tool name. */
export const PLAN_PREFIX = "#E1 =";

const PLANNER_RULES = [
  "Use only the tools above, with their exact names.",
  "Give every required parameter a concrete value taken from the task; never invent ids or names.",
  "To use an earlier result, name its step: #E1 for the whole result, #E1.items[0].id for one field.",
  "Write only the steps, one per line, no explanations.",
];

export function buildPlannerPrompt(input: PlannerPromptInput): string {
  const sections = [
    'Plan the tool calls that complete the task. Write each step as #E<n> = tool(param="value", ...).',
    ["Tools:", ...input.tools.map(describeTool)].join("\n"),
    ["Rules:", ...PLANNER_RULES.map((rule) => `- ${rule}`)].join("\n"),
    input.skillRules,
    input.context ? `Context: ${input.context}` : undefined,
    `Task: ${input.query}\n${PLAN_PREFIX}`,
  ];
  return sections.filter((section): section is string => Boolean(section)).join("\n\n");
}

export function plannerOptions(maxTokens: number): GenerationOptions {
  return { temperature: 0, maxTokens, stop: ["\nTask:", "\n\n\n", "Observation:"] };
}
