/**
 * `decide`: the pipeline's deterministic decisions on given inputs, no model called, computed by the
 * code the agent runs for the configuration (stage-decisions.ts). The contract — what comes in and what
 * goes out — is docs/schemas/decide-input.schema.json and decide-output.schema.json; the OnsetLab
 * fidelity check (`../shared/onsetlab-fidelity/check`) compares its answers with the real OnsetLab code's.
 * `shown` is the ranking's choice: a configuration with `tool_selection: model` puts a model's picks
 * before it at run time, which no deterministic answer can hold.
 */

import type { ToolDefinition } from "../tool-protocol/types.ts";
import { UnknownDecideToolError } from "./errors.ts";
import { rejectedOutcome, type StepOutcome } from "./executor.ts";
import { SKILLS } from "./skills/catalog.ts";
import { detectSkill } from "./skills/detect.ts";
import {
  asksIntentCheck,
  parsePlannerOutput,
  rescueFailedPlan,
  ruleRoute,
  shownTools,
  validateCall,
} from "./stage-decisions.ts";
import type { AgentConfig, Route } from "./types.ts";

export interface DecideInput {
  /** Every tool that may be connected, in connection order; server `builtin` marks the built-ins. */
  tools: ToolDefinition[];
  items?: { id: string; query: string; servers: string[] }[];
  /** `text`: the planner's completion after `#E1 =`; `tools`: the names the planner was shown. */
  plans?: { key: string; query: string; text: string; tools: string[] }[];
  /** One step calling `tool` with `args` failed validation for lack of the required `missing`. */
  rescue?: {
    key: string;
    query: string;
    tool: string;
    args: Record<string, unknown>;
    missing: string;
    tools: string[];
  }[];
}

export interface DecideOutput {
  config: string;
  items: { id: string; route: Route; intentCheck: boolean; shown: string[]; skill: string | null }[];
  plans: { key: string; steps: { tool: string; args: Record<string, unknown>; error: string | null }[] }[];
  rescue: { key: string; patched: boolean; args: Record<string, unknown> }[];
}

export function decide(input: DecideInput, config: AgentConfig, configName: string): DecideOutput {
  const firstByName = new Map<string, ToolDefinition>();
  for (const tool of input.tools) if (!firstByName.has(tool.name)) firstByName.set(tool.name, tool);
  const resolve = (entry: string, names: readonly string[]): ToolDefinition[] =>
    names.map((name) => {
      const tool = firstByName.get(name);
      if (!tool) throw new UnknownDecideToolError(entry, name);
      return tool;
    });
  return {
    config: configName,
    items: (input.items ?? []).map((item) => {
      const connected = new Set(item.servers);
      const tools = input.tools.filter((tool) => connected.has(tool.server));
      const decision = ruleRoute(item.query, tools, config);
      const shown = shownTools(item.query, tools, config).tools;
      const skill = config.skills ? detectSkill(item.query, shown, SKILLS) : undefined;
      return {
        id: item.id,
        route: decision.route,
        intentCheck: asksIntentCheck(decision, tools, config),
        shown: shown.map((tool) => tool.name),
        skill: skill?.choice.name ?? null,
      };
    }),
    plans: (input.plans ?? []).map((plan) => {
      const tools = resolve(`plan ${plan.key}`, plan.tools);
      const parsed = parsePlannerOutput(plan.text, { shown: tools, all: tools }, config);
      return {
        key: plan.key,
        steps: parsed.steps.map((step) => ({ tool: step.tool, args: step.args, error: step.error ?? null })),
      };
    }),
    rescue: (input.rescue ?? []).map((rescueCase) => {
      const tools = resolve(`rescue ${rescueCase.key}`, rescueCase.tools);
      const step = validateCall(rescueCase, tools, config);
      const outcome: StepOutcome = step.error
        ? rejectedOutcome(step, step.error, 0)
        : { id: step.id, tool: step.tool, round: 0, status: "ok", text: "ok" };
      const rescued = rescueFailedPlan(
        { query: rescueCase.query, steps: [step], outcomes: [outcome], tools, round: 1, validation: config.validation },
        config,
      );
      return { key: rescueCase.key, patched: rescued.patched.length > 0, args: rescued.steps[0]?.args ?? step.args };
    }),
  };
}
