/**
 * Which configurations ablate which axis: a configuration belongs to an axis when its resolved agent
 * configuration (run.json) differs from the reference configuration's only in that axis's switches.
 * The paired test against the reference comes from summary.json's comparisons, turned to read
 * "configuration − reference".
 */

import type { ConfigComparison } from "../bench/run/compare-configs.ts";
import type { ResolvedConfig } from "../bench/run/run-file-types.ts";
import type { PairedTest } from "../bench/scoring/compare.ts";
import { canonicalJson } from "../json.ts";

/** The configuration ablations are compared with, unless told otherwise. */
export const DEFAULT_REFERENCE = "onsetlab";

export type AxisKey = keyof ResolvedConfig;

export interface AblationAxis {
  id: string;
  title: string;
  keys: readonly AxisKey[];
}

/** The axes a report tables, in the order it tables them (DESIGN §3). */
export const ABLATION_AXES: readonly AblationAxis[] = [
  { id: "filter", title: "Tool filter N", keys: ["filter"] },
  { id: "skills", title: "Skills on/off", keys: ["skills"] },
  { id: "strategy", title: "Strategy: ReWOO vs ReAct vs native vs jsonl", keys: ["strategy"] },
  { id: "rescue-fallback", title: "Rescue (onsetlab/extended/off) and fallback on/off", keys: ["rescue", "fallback"] },
  { id: "write-guard", title: "Write guard: per tool / per call / off", keys: ["writeGuard"] },
  { id: "routing-llm", title: "Routing model check on/off", keys: ["routingLlm"] },
  { id: "exposure", title: "Exposure: the item's servers vs its session vs every server", keys: ["exposure"] },
  // The OnsetLab axes: each improvement of onsetlab-plus alone over the reference `onsetlab`.
  { id: "router", title: "Router rules: OnsetLab vs this project's", keys: ["router"] },
  { id: "relevance", title: "Router relevance: OnsetLab's tool match vs the filter's score", keys: ["relevance"] },
  { id: "ranking", title: "Filter ranking: OnsetLab's scores vs this project's", keys: ["ranking"] },
  { id: "tool-terms", title: "Tool retrieval: name and description vs the schema too", keys: ["toolTerms"] },
  { id: "rank-clauses", title: "Tool retrieval: the whole request vs each part ranked", keys: ["rankClauses"] },
  { id: "workflows", title: "Tool retrieval: id finders added (workflows) off/on", keys: ["workflows"] },
  {
    id: "tool-selection",
    title: "Tool retrieval: the ranking's top N vs a model call's picks first",
    keys: ["toolSelection"],
  },
  { id: "parser", title: "Plan parser: OnsetLab's vs tolerant", keys: ["parser"] },
  { id: "plan-steps", title: "Planner: one step vs a plan (with field references)", keys: ["planSteps", "fieldRefs"] },
  { id: "plan-examples", title: "Planner examples: placeholders vs concrete values", keys: ["planExamples"] },
  { id: "validation", title: "Validation: strict vs lenient", keys: ["validation"] },
  { id: "fallback-trigger", title: "Fallback trigger: all steps failed vs any step failed", keys: ["fallbackTrigger"] },
  { id: "fallback-iterations", title: "Fallback iterations", keys: ["fallbackIterations"] },
  { id: "react-protocol", title: "ReAct protocol: call syntax vs JSON Action Input", keys: ["reactProtocol"] },
  { id: "react-ending", title: "ReAct ending: failure message vs solver", keys: ["reactEnding"] },
  { id: "builtins", title: "Built-ins: always shown vs ranked", keys: ["builtins"] },
  { id: "solver-data", title: "Solver data: raw per result vs compact shared", keys: ["solverData"] },
  { id: "skills-in-react", title: "Skill rules in the ReAct prompts off/on", keys: ["skillsInReact"] },
  { id: "history", title: "Earlier turns: answers only vs calls and results", keys: ["history"] },
  { id: "history-filter", title: "Filter ranks against earlier turns off/on", keys: ["historyFilter"] },
  {
    id: "history-compact",
    title: "Over the history budget: oldest turns dropped vs summarised",
    keys: ["history", "historyCompact"],
  },
];

/** The switches (top-level keys) in which two resolved configurations differ. */
export function differingKeys(a: ResolvedConfig, b: ResolvedConfig): AxisKey[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])] as AxisKey[];
  return keys.filter((key) => canonicalJson(a[key]) !== canonicalJson(b[key]));
}

/** The axis a configuration ablates against the reference, or undefined (the reference itself, or several axes at once). */
export function axisOf(config: ResolvedConfig, reference: ResolvedConfig): AblationAxis | undefined {
  const differing = differingKeys(config, reference);
  if (differing.length === 0) return undefined;
  return ABLATION_AXES.find((axis) => differing.every((key) => axis.keys.includes(key)));
}

/** `filter=3`, `rescue=off · fallback=on`: the axis's switches as the configuration sets them. */
export function settingText(axis: AblationAxis, config: ResolvedConfig): string {
  return axis.keys
    .map((key) => {
      const value = config[key];
      return `${key}=${typeof value === "boolean" ? (value ? "on" : "off") : String(value)}`;
    })
    .join(" · ");
}

/** Paired tests of `config` against `reference` on one model, oriented as config − reference. */
export interface AgainstReference {
  taskSuccess: PairedTest;
  toolChoice: PairedTest;
}

export function againstReference(
  comparisons: readonly ConfigComparison[],
  model: string,
  reference: string,
  config: string,
): AgainstReference | undefined {
  const found = comparisons.find(
    (comparison) =>
      comparison.model === model &&
      ((comparison.a === reference && comparison.b === config) ||
        (comparison.a === config && comparison.b === reference)),
  );
  if (!found) return undefined;
  if (found.a === reference) return { taskSuccess: found.taskSuccess, toolChoice: found.toolChoice };
  return { taskSuccess: reversed(found.taskSuccess), toolChoice: reversed(found.toolChoice) };
}

/** The same test read the other way round (B − A becomes A − B). */
function reversed(test: PairedTest): PairedTest {
  return {
    ...test,
    b01: test.b10,
    b10: test.b01,
    a: test.b,
    b: test.a,
    difference: { value: -test.difference.value, lo: -test.difference.hi, hi: -test.difference.lo },
  };
}
