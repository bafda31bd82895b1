/** Rescue rate: did the first plan fail, what recovered it, and did the rescue inject wrong values. */

import { fromJson } from "../../python/value.ts";
import type { DatasetItem } from "../dataset/types.ts";
import { checkArgValue, expectedArgsFromJson } from "./arg-match.ts";
import type { RescueScore, WrongInjection } from "./score-types.ts";
import type { ToolCatalog } from "./tool-catalog.ts";
import type { RescueView, TraceView } from "./types.ts";

/**
 * Null unless the run made a ReWOO plan.
 * - firstPlanFailed: a round-0 step ended in error or was skipped (validation error, missing
 *   parameter, failed dependency), or the planner wrote no step although the item needs calls.
 * - recovered: the first plan failed and the item still succeeded; recoveredBy says how — the ReAct
 *   fallback if it ran, else the rescue if it patched anything, else `none` (e.g. the failed step was
 *   not needed).
 * - injections are judged against the gold labels: a value for a parameter of a gold call of the same
 *   tool is wrong when no such gold call accepts it (matchJsonArgs' value rules); on a missing_info
 *   item, any value injected for one of its `missing` parameters is wrong (the query does not give
 *   it). Other injections cannot be judged and are left out of `judged`.
 */
export function scoreRescue(
  item: DatasetItem,
  trace: TraceView,
  taskSuccess: boolean,
  catalog: ToolCatalog,
): RescueScore | null {
  if (!trace.plan) return null;
  const firstPlanFailed =
    trace.steps.some((step) => step.round === 0 && step.status !== "ok") ||
    (trace.plan.steps.length === 0 && item.calls.length > 0);
  const recovered = firstPlanFailed && taskSuccess;
  const recoveredBy = !recovered
    ? "none"
    : trace.fallback.used
      ? "fallback"
      : trace.rescues.length > 0
        ? "rescue"
        : "none";
  let judged = 0;
  const wrong: WrongInjection[] = [];
  for (const injection of trace.rescues) {
    const verdict = judgeInjection(item, injection, catalog);
    if (verdict === "unjudged") continue;
    judged++;
    if (verdict === "wrong") {
      wrong.push({ tool: injection.tool, param: injection.param, value: injection.value, pattern: injection.pattern });
    }
  }
  return { firstPlanFailed, recovered, recoveredBy, injections: trace.rescues.length, judged, wrong };
}

function judgeInjection(
  item: DatasetItem,
  injection: RescueView,
  catalog: ToolCatalog,
): "right" | "wrong" | "unjudged" {
  if (item.category === "missing_info" && item.missing?.includes(injection.param)) return "wrong";
  const candidates = item.calls.filter(
    (call) => call.tool === injection.tool && Object.hasOwn(call.args, injection.param),
  );
  if (candidates.length === 0) return "unjudged";
  const schema = catalog.callSchema(injection.tool)?.properties?.[injection.param];
  const value = fromJson(injection.value);
  const accepted = candidates.some((call) => {
    const acceptable = expectedArgsFromJson(call.args).get(injection.param) ?? [];
    return checkArgValue(injection.param, value, acceptable, schema, "json").valid;
  });
  return accepted ? "right" : "wrong";
}
