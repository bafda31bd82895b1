/**
 * Classifies the ReWOO planner's raw completion against the gold calls, per step and per output —
 * the measured rate of each error type the simulator injects (DESIGN §6, same names as
 * src/models/sim/error-types.ts), so its profiles can be calibrated against what models (real or
 * simulated) actually write. Each mistake is attributed once: its consequences (the parameter a
 * rename leaves missing, the values a positional mapping misplaces) are not counted again.
 *
 * Per step (a `#En = tool(…)` call as written; see plan-text.ts), paired with a gold call by
 * plan-gold-pairing.ts:
 * - hallucinated_tool: the tool exists in no tool definition (no argument checks).
 * - wrong_tool: an existing tool no gold call uses; or a gold tool whose arguments belong to another
 *   gold call; or one call of a tool more than the task needs (no argument checks).
 * - positional_args: an argument without a name. Such a step gets no missing or value checks: the
 *   positions are mapped by guesswork (required parameters first, as the plan parser maps them).
 * - wrong_param_name: a named argument the tool's schema does not declare (camelCase for
 *   snake_case, a synonym, an invented name).
 * - merged_owner_repo: `owner` or `repo` (or a misnamed key with either word in it) holds one `a/b`
 *   string while the schema takes `owner` and `repo` apart; the parameter it leaves out, the
 *   misnamed key and the owner/repo values are not counted again.
 * - missing_required_param: a parameter the schema requires, or the paired gold call requires (no
 *   `""` among its alternatives), is absent under any spelling or empty — unless there are at least
 *   as many misnamed keys as missing parameters (they were renamed), or an unreadable value may
 *   have swallowed the arguments after it.
 * - type_error / wrong_value: a readable value of a paired gold call's parameter that fails its
 *   alternatives (matchJsonArgs' rules), by type or by value. `#E` references are resolved only at
 *   run time: not judged.
 * - malformed_syntax: not well-formed call syntax — an unclosed call, an unreadable value, arguments
 *   with no comma between them, `name: value`, an empty argument, a call without a `#En =` header.
 * - duplicate_steps: the same tool with the same arguments as an earlier step.
 * Per output:
 * - malformed_syntax also when a chat-template token leaked (`<|im_end|>`, `</s>`).
 * - prose_around_call: text besides the steps (explanations, code fences, a sentence after the
 *   calls) in an output that has steps — an output with no step is an answer, not prose around
 *   calls, so calibrate this rate on outputs with steps.
 * - direct_answer_when_tool_needed: the item needs calls and the output has no step.
 * - tool_call_on_direct: the item needs no call (direct, irrelevant, missing_info) and a step calls
 *   a tool it should not — any tool, except that missing_info allows look-ups: there only tools in
 *   `forbidden` (every write tool when the item lists none). Such a step gets no argument checks:
 *   the call is the mistake, and what it lacks (on missing_info, the value the user never gave) is
 *   not counted again as missing_required_param.
 */

import { canonicalJson } from "../../json.ts";
import type { DatasetItem, ExpectedCall } from "../dataset/types.ts";
import { abstentionForbids } from "./abstention.ts";
import { expectedArgsFromJson } from "./arg-match.ts";
import { pairStepsWithGold } from "./plan-gold-pairing.ts";
import {
  isEmpty,
  isOmitMarker,
  judgedValues,
  keyFor,
  looseKey,
  type StepArgs,
  stepArgs,
  undeclaredKeys,
} from "./plan-step-args.ts";
import { type PlanTextStep, readPlanText } from "./plan-text.ts";
import { ToolCatalog } from "./tool-catalog.ts";
import type { ToolView } from "./types.ts";

export type PlannerErrorType =
  | "wrong_tool"
  | "hallucinated_tool"
  | "missing_required_param"
  | "wrong_param_name"
  | "merged_owner_repo"
  | "wrong_value"
  | "type_error"
  | "positional_args"
  | "tool_call_on_direct"
  | "direct_answer_when_tool_needed"
  | "prose_around_call"
  | "malformed_syntax"
  | "duplicate_steps";

/** The simulator's names (src/models/sim/error-types.ts) plus `type_error`, which it does not inject. */
export const PLANNER_ERROR_TYPES: readonly PlannerErrorType[] = [
  "wrong_tool",
  "hallucinated_tool",
  "missing_required_param",
  "wrong_param_name",
  "merged_owner_repo",
  "wrong_value",
  "type_error",
  "positional_args",
  "tool_call_on_direct",
  "direct_answer_when_tool_needed",
  "prose_around_call",
  "malformed_syntax",
  "duplicate_steps",
];

export interface PlannerStepClass {
  /** `#E1` …, or null for a call written without a header. */
  id: string | null;
  tool: string;
  errors: PlannerErrorType[];
}

export interface PlannerClassification {
  steps: PlannerStepClass[];
  /** Every error type seen in the output, in PLANNER_ERROR_TYPES order. */
  errors: PlannerErrorType[];
}

const MERGED = /^[^\s/]+\/[^\s/]+$/;

/** `raw` is the planner's completion as the trace records it (the text after the prompt's `#E1 =`). */
export function classifyPlannerOutput(
  raw: string,
  item: DatasetItem,
  tools: readonly ToolView[] | ToolCatalog,
): PlannerClassification {
  const catalog = tools instanceof ToolCatalog ? tools : new ToolCatalog(tools);
  const text = readPlanText(raw, (name) => catalog.has(name));
  const targets = text.steps.map((step) => stepArgs(step, catalog));
  const seen = new Set<string>();
  const duplicate = targets.map(({ step, args }) => {
    const key = `${step.tool}(${canonicalJson(args)})`;
    const repeated = seen.has(key);
    seen.add(key);
    return repeated;
  });
  const pairings = pairStepsWithGold(targets, duplicate, item, catalog);
  // A step the item does not call for is tool_call_on_direct, that one mistake: its arguments are not judged.
  const uncalledFor = targets.map(
    ({ step }) => item.calls.length === 0 && !allowedWithoutGold(item, step.tool, catalog),
  );

  const steps = targets.map((target, index): PlannerStepClass => {
    const { step } = target;
    const errors = new Set<PlannerErrorType>();
    // A repeat is that one mistake; what it repeats was classified at its first occurrence.
    if (duplicate[index]) errors.add("duplicate_steps");
    else {
      if (step.malformed !== null) errors.add("malformed_syntax");
      if (writtenByPosition(step)) errors.add("positional_args");
      if (!catalog.has(step.tool)) errors.add("hallucinated_tool");
      else if (pairings[index]!.wrongTool) errors.add("wrong_tool");
      else if (!uncalledFor[index]) {
        for (const error of argumentErrors(target, pairings[index]!.gold, catalog)) errors.add(error);
      }
    }
    return { id: step.id, tool: step.tool, errors: ordered(errors) };
  });

  const output = new Set<PlannerErrorType>(steps.flatMap((step) => step.errors));
  if (text.templateToken) output.add("malformed_syntax");
  if (steps.length > 0 && text.prose.length > 0) output.add("prose_around_call");
  if (item.calls.length > 0 && steps.length === 0) output.add("direct_answer_when_tool_needed");
  if (uncalledFor.some(Boolean)) output.add("tool_call_on_direct");
  return { steps, errors: ordered(output) };
}

/**
 * Arguments without names. After an unreadable value the rest of the call may fall apart into
 * nameless pieces, so such a step counts only when its first argument already has no name.
 */
function writtenByPosition(step: PlanTextStep): boolean {
  if (step.positional.length === 0) return false;
  return !step.incomplete || step.firstPositional;
}

function ordered(errors: ReadonlySet<PlannerErrorType>): PlannerErrorType[] {
  return PLANNER_ERROR_TYPES.filter((type) => errors.has(type));
}

function argumentErrors(target: StepArgs, gold: ExpectedCall | null, catalog: ToolCatalog): PlannerErrorType[] {
  const { step, args } = target;
  const errors: PlannerErrorType[] = [];
  const merged = mergedOwnerRepo(args, catalog.params(step.tool));
  const misnamed = undeclaredKeys(target, step.tool, catalog).filter((key) => !merged.has(key));
  if (misnamed.length > 0) errors.push("wrong_param_name");
  if (merged.size > 0) errors.push("merged_owner_repo");
  // Positional arguments are mapped by guesswork, and an unreadable value may have swallowed the
  // arguments after it: what such a step lacks or gets wrong is not its own mistake to count.
  if (step.positional.length > 0) return errors;
  const ownerRepo = (param: string) => merged.size > 0 && (param === "owner" || param === "repo");

  if (!step.incomplete) {
    const mustHave = new Set(catalog.required(step.tool));
    for (const [param, acceptable] of gold ? expectedArgsFromJson(gold.args) : []) {
      if (!acceptable.some(isOmitMarker)) mustHave.add(param);
    }
    const missing = [...mustHave].filter((param) => {
      const key = keyFor(target, param);
      return !ownerRepo(param) && (key === undefined || isEmpty(args[key]));
    });
    // A value passed under another name is also missing under its own: one mistake, not two.
    if (missing.length > misnamed.length) errors.push("missing_required_param");
  }
  if (gold) {
    for (const verdict of judgedValues(target, gold, catalog, ownerRepo).values()) {
      if (!verdict.valid) errors.push(verdict.errorType.startsWith("type_error") ? "type_error" : "wrong_value");
    }
  }
  return errors;
}

/** Keys holding one `a/b` string where the schema wants `owner` and `repo` separately. */
function mergedOwnerRepo(args: Record<string, unknown>, declared: readonly string[]): Set<string> {
  const keys = new Set<string>();
  if (!declared.includes("owner") || !declared.includes("repo")) return keys;
  for (const [key, value] of Object.entries(args)) {
    const loose = looseKey(key);
    if ((loose.includes("owner") || loose.includes("repo")) && typeof value === "string" && MERGED.test(value)) {
      keys.add(key);
    }
  }
  return keys;
}

function allowedWithoutGold(item: DatasetItem, tool: string, catalog: ToolCatalog): boolean {
  if (item.category !== "missing_info" || !catalog.has(tool)) return false;
  return !abstentionForbids(item, tool, catalog);
}
