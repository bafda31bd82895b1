/**
 * Which injected mistakes the scorer's planner-output classifier can see BY CONSTRUCTION, decided per
 * planner request from the item's gold labels, the tools the prompt listed and the simulator's
 * request-level draw — never from the classifier's verdict. The calibration compares the measured
 * rate with the expected one on these observable units only; the rest is reported beside it.
 *
 * Request-level draws and call-level draws come from separate streams, so conditioning the call-level
 * units on the request-level draw (no malformed_syntax) leaves the call-level rates unbiased.
 */

import type { DatasetItem } from "../../src/bench/dataset/types.ts";
import type { ToolCatalog } from "../../src/bench/scoring/index.ts";
import { alternativesOf, concreteAlternatives, isMatcher, mayOmit } from "../../src/gold-value.ts";
import { type CallErrorType, type GoldCall, goldCalls, type RequestErrorType } from "../../src/models/sim/index.ts";

/** One planner request as the calibration sees it. */
export interface PlannerRequestView {
  item: DatasetItem;
  /** The tools the planner prompt listed, in order (the filter's survivors). */
  shown: readonly string[];
  /** The simulator's request-level draw for it. */
  requestDraw: RequestErrorType | undefined;
}

const EVERY_CALL = "every gold call written, in outputs without a malformed_syntax draw";

/** The rule of each type, as the report prints it. */
export const OBSERVABLE_RULES: Record<RequestErrorType | CallErrorType, string> = {
  wrong_tool: EVERY_CALL,
  hallucinated_tool: EVERY_CALL,
  missing_required_param:
    "gold calls written in outputs without a malformed_syntax draw, of items where every argument the simulator may " +
    "drop (the prompt-listed required ones the call has, else any) is one the scorer requires: schema-required, " +
    'or listed in the gold without ""',
  wrong_param_name: EVERY_CALL,
  merged_owner_repo: EVERY_CALL,
  wrong_value:
    "gold calls written in outputs without a malformed_syntax draw, of items whose every scalar gold argument has " +
    "one acceptable value and no {regex}/{any} alternative (a near miss a matcher accepts, or another enum value " +
    "the gold also lists, is no mistake)",
  positional_args: EVERY_CALL,
  tool_call_on_direct:
    "items without gold calls whose tempting tool is not allowed: direct and irrelevant items with tools shown; " +
    "missing_info items whose prompt lists one of their forbidden tools (the simulator calls it); missing_info " +
    "items without a forbidden list " +
    "when the first tool shown is a write tool (look-ups are allowed there)",
  direct_answer_when_tool_needed:
    "items with gold calls whose gold tools the prompt listed (a model not shown a needed tool writes no step)",
  prose_around_call:
    "items with gold calls whose gold tools the prompt listed (prose beside no step is an answer, not prose " +
    "around a call)",
  malformed_syntax: "every planner output",
  duplicate_steps: "items with gold calls whose gold tools the prompt listed",
};

export function requestObservable(type: RequestErrorType, view: PlannerRequestView, catalog: ToolCatalog): boolean {
  const needsCalls = view.item.calls.length > 0;
  switch (type) {
    case "malformed_syntax":
      return true;
    case "direct_answer_when_tool_needed":
    case "prose_around_call":
    case "duplicate_steps":
      // the simulator writes no step for a task whose tool the prompt did not list: nothing to see there
      return needsCalls && view.item.calls.every((call) => view.shown.includes(call.tool));
    case "tool_call_on_direct":
      return !needsCalls && temptingToolForbidden(view, catalog);
  }
}

/** Whether the calls of this request count toward a call-level type's observable rate. */
export function callsObservable(type: CallErrorType, view: PlannerRequestView, catalog: ToolCatalog): boolean {
  // Items without gold calls have no call-level units: their steps are tool_call_on_direct's business.
  if (view.item.calls.length === 0 || view.requestDraw === "malformed_syntax") return false;
  const calls = goldCalls(view.item);
  switch (type) {
    case "missing_required_param":
      return calls.every((call, index) => dropVisible(call, view.item.calls[index]!.args, view.shown, catalog));
    case "wrong_value":
      return calls.every((call, index) => valuesJudgedLiterally(call, view.item.calls[index]!.args));
    default:
      return true;
  }
}

/** The simulator's spurious call goes to the first forbidden tool the prompt shows, else to the first tool shown. */
function temptingToolForbidden(view: PlannerRequestView, catalog: ToolCatalog): boolean {
  const { item } = view;
  if (item.category !== "missing_info") return view.shown.length > 0;
  // with a forbidden list, only those tools are mistakes there; the simulator calls one only if it is shown
  if (item.forbidden && item.forbidden.length > 0) return item.forbidden.some((tool) => view.shown.includes(tool));
  const first = view.shown[0];
  return first !== undefined && catalog.isWrite(first);
}

/**
 * The simulator drops one of the call's arguments the prompt lists as required (when the tool is shown
 * and the call has one), else any argument. The scorer misses the drop only when that argument is
 * optional in the schema and the gold allows leaving it out.
 */
function dropVisible(
  call: GoldCall,
  expected: Record<string, unknown>,
  shown: readonly string[],
  catalog: ToolCatalog,
): boolean {
  const required = new Set(catalog.required(call.tool));
  const names = Object.keys(call.args);
  if (shown.includes(call.tool) && names.some((name) => required.has(name))) return true;
  return names.every((name) => required.has(name) || !mayOmit(expected[name]));
}

/**
 * Every string, number or boolean the simulator may alter has exactly one acceptable value: any other
 * value is wrong to the scorer (`""`, omission allowed, does not accept a value).
 */
function valuesJudgedLiterally(call: GoldCall, expected: Record<string, unknown>): boolean {
  return Object.entries(call.args)
    .filter(([, value]) => ["string", "number", "boolean"].includes(typeof value))
    .every(
      ([name]) => !alternativesOf(expected[name]).some(isMatcher) && concreteAlternatives(expected[name]).length === 1,
    );
}
