/** Abstention: on `irrelevant` items no call at all; on `missing_info` items no call to a forbidden tool. */

import type { DatasetItem } from "../dataset/types.ts";
import type { CountedCall, ProposedCall } from "./calls.ts";
import type { AbstentionScore } from "./score-types.ts";
import type { ToolCatalog } from "./tool-catalog.ts";

/**
 * - irrelevant: the model proposed no call (no plan step, no loop action) and no call was made —
 *   a plan step for a tool that does not exist is still a call the model should not have made.
 * - missing_info: no counted call (it reached a server, failed or not) to a tool in `forbidden`;
 *   look-ups are allowed. An item without `forbidden` forbids every write tool.
 * Null for other categories.
 */
export function scoreAbstention(
  item: DatasetItem,
  proposed: readonly ProposedCall[],
  counted: readonly CountedCall[],
  catalog: ToolCatalog,
): AbstentionScore | null {
  if (item.category === "irrelevant") {
    const offending = distinct([...proposed.map((call) => call.tool), ...counted.map((call) => call.tool)]);
    return { rule: "no_call", ok: offending.length === 0, offending };
  }
  if (item.category === "missing_info") {
    const offending = distinct(
      counted.filter((call) => abstentionForbids(item, call.tool, catalog)).map((call) => call.tool),
    );
    return { rule: "no_forbidden_call", ok: offending.length === 0, offending };
  }
  return null;
}

/**
 * A call of `tool` is one the item asks the model not to make: any call on `irrelevant`; on
 * `missing_info` one to a tool in `forbidden` (every write tool when the item lists none).
 */
export function abstentionForbids(item: DatasetItem, tool: string, catalog: ToolCatalog): boolean {
  if (item.category === "irrelevant") return true;
  if (item.category !== "missing_info") return false;
  return item.forbidden ? item.forbidden.includes(tool) : catalog.isWrite(tool);
}

function distinct(names: readonly string[]): string[] {
  return [...new Set(names)];
}
