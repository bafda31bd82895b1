/** Routing: the router's decision against the item's expected route (only when the router ran). */

import type { DatasetItem } from "../dataset/types.ts";
import type { RoutingScore } from "./score-types.ts";
import type { TraceView } from "./types.ts";

export function scoreRouting(item: DatasetItem, trace: TraceView): RoutingScore | null {
  if (!trace.route) return null;
  const predicted = String(trace.route.route).toLowerCase();
  return { expected: item.route, predicted, ok: predicted === item.route, rule: trace.route.rule };
}
