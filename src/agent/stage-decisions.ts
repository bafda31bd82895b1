/**
 * The pipeline's deterministic decisions for a configuration — rule route, whether the intent check is
 * asked, the tools shown, the plan parsed from a completion, the rescue of a failed plan — in one place,
 * so that the agent (agent.ts) and `decide` (decide.ts, the fidelity check's contract) run the same code.
 */

import type { ToolDefinition } from "../tool-protocol/types.ts";
import { type FilteredTools, filterTools } from "./filter.ts";
import { missingParamsError, missingRequired, parsePlan } from "./plan-parser.ts";
import { parseOnsetlabPlan, validateOnsetlabStep } from "./plan-parser-onsetlab.ts";
import { PLAN_PREFIX, plannerOptions } from "./planner.ts";
import { type RescueInput, type RescueOutput, rescuePlan } from "./rescue.ts";
import { rescueOnsetlab } from "./rescue-onsetlab.ts";
import { needsRoutingLlm, routeByRules } from "./router.ts";
import { mergeSelection } from "./selector.ts";
import { cutAtStops } from "./text.ts";
import { findTool, isBuiltin } from "./tool-schema.ts";
import type { AgentConfig, ParsedPlan, PlanStep, RouteDecision } from "./types.ts";

export function ruleRoute(query: string, tools: readonly ToolDefinition[], config: AgentConfig): RouteDecision {
  return routeByRules(query, tools, config.router, config.relevance);
}

export function asksIntentCheck(
  decision: RouteDecision,
  tools: readonly ToolDefinition[],
  config: AgentConfig,
): boolean {
  const serverTools = tools.filter((tool) => !isBuiltin(tool)).length;
  return config.routingLlm && needsRoutingLlm(decision, config.router, serverTools);
}

export function shownTools(query: string, tools: readonly ToolDefinition[], config: AgentConfig): FilteredTools {
  return filterTools(query, tools, config.filter, config.builtins, config.ranking, {
    schemaTerms: config.toolTerms === "schema",
    clauses: config.rankClauses,
    workflows: config.workflows,
  });
}

/**
 * The tools a model call chooses among (`tool_selection: model`): those the filter ranks (with
 * `builtins: always`, the server tools), when there are more than it keeps; else none, and no call.
 */
export function selectionCandidates(tools: readonly ToolDefinition[], config: AgentConfig): ToolDefinition[] {
  if (config.toolSelection !== "model" || config.filter === "all") return [];
  const candidates = config.builtins === "always" ? tools.filter((tool) => !isBuiltin(tool)) : [...tools];
  return candidates.length > config.filter ? candidates : [];
}

/** The shown tools with a selector's picks first and the ranking's after (built-ins kept when always shown). */
export function applySelection(
  filtered: FilteredTools,
  picks: readonly string[],
  tools: readonly ToolDefinition[],
  config: AgentConfig,
): FilteredTools {
  if (picks.length === 0 || config.filter === "all") return filtered;
  const fixed = config.builtins === "always" ? filtered.tools.filter(isBuiltin) : [];
  const ranked = filtered.tools.filter((tool) => !fixed.includes(tool)).map((tool) => tool.name);
  const names = mergeSelection(picks, ranked, config.filter);
  const chosen = names.flatMap((name) => tools.filter((tool) => tool.name === name));
  return { tools: [...fixed, ...chosen], scores: filtered.scores };
}

/** The planner's stop list for this configuration (the agent cuts the output there even if the server did not). */
export function plannerStops(config: AgentConfig): readonly string[] {
  return plannerOptions(config.limits.plannerMaxTokens, config.planSteps).stop ?? [];
}

/**
 * A planner completion (the text after the prompt's `#E1 =`) → steps. OnsetLab's parser validates
 * against the tools the planner was shown; the tolerant one against every connected tool.
 */
export function parsePlannerOutput(
  completion: string,
  tools: { shown: readonly ToolDefinition[]; all: readonly ToolDefinition[] },
  config: AgentConfig,
): ParsedPlan {
  const cut = cutAtStops(completion, plannerStops(config));
  if (config.parser === "onsetlab") return parseOnsetlabPlan(cut, tools.shown);
  return parsePlan(`${PLAN_PREFIX}${cut}`, tools.all, config.validation);
}

export function rescueFailedPlan(input: RescueInput, config: AgentConfig): RescueOutput {
  return config.rescue === "onsetlab" ? rescueOnsetlab(input) : rescuePlan(input);
}

/** One call checked as the configuration's parser checks a step: the tool known, its required parameters given. */
export function validateCall(
  call: { tool: string; args: Record<string, unknown> },
  tools: readonly ToolDefinition[],
  config: AgentConfig,
): PlanStep {
  const step: PlanStep = { id: "#E1", tool: call.tool, args: { ...call.args }, dependsOn: [], raw: call.tool };
  if (config.parser === "onsetlab") return validateOnsetlabStep(step, tools);
  const tool = findTool(tools, call.tool);
  if (!tool) return { ...step, error: `unknown tool "${call.tool}"` };
  const missing = missingRequired(tool, step.args, config.validation);
  return missing.length > 0 ? { ...step, missing, error: missingParamsError(missing) } : step;
}
