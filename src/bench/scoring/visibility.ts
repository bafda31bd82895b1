/**
 * Visibility: were the item's gold tools in the prompt? The planner and ReAct see the filter's top N
 * (`tools.filtered`); native and jsonl get every connected tool. A gold tool the prompt did not show
 * cannot be chosen except by a lucky guess of its name, so a run that missed it measures the filter
 * and the session's servers, not the model: failures.ts calls that `tool_not_shown`.
 */
import type { DatasetItem } from "../dataset/types.ts";
import type { VisibilityScore } from "./score-types.ts";
import type { TraceView } from "./types.ts";

/** Paths whose prompt listed tools; a direct answer (or a run stopped before routing) showed none. */
const SHOWING_PATHS: ReadonlySet<string> = new Set(["rewoo", "react", "native", "jsonl"]);

/** Null for items without gold calls, and for runs that never showed the model a tool list. */
export function scoreVisibility(item: Pick<DatasetItem, "calls">, trace: TraceView): VisibilityScore | null {
  if (item.calls.length === 0 || !trace.tools || !trace.path || !SHOWING_PATHS.has(trace.path)) return null;
  const shown = new Set(trace.tools.filtered);
  const hidden = [...new Set(item.calls.map((call) => call.tool))].filter((tool) => !shown.has(tool));
  return {
    shown: hidden.length === 0,
    hidden,
    toolsShown: shown.size,
    toolsConnected: trace.tools.available.length,
    ...(trace.tools.blind ? { filterBlind: true as const } : {}),
  };
}
