/** Tool choice: the first tool the model chose, the set of tools it called, and invented tool names. */

import type { DatasetItem } from "../dataset/types.ts";
import type { CallMatching } from "./call-match.ts";
import type { CountedCall, ProposedCall } from "./calls.ts";
import type { ToolChoiceScore } from "./score-types.ts";

export interface ToolChoiceInput {
  item: DatasetItem;
  proposed: readonly ProposedCall[];
  counted: readonly CountedCall[];
  matching: CallMatching;
  hallucinated: readonly string[];
  /** The model's calls came back as text the server did not parse (failure `tool_call_as_text`). */
  leftAsText: boolean;
}

/**
 * - firstCall: the first tool the model proposed (a plan's first step, else its first loop action;
 *   without either, the first counted call) is the first gold tool — for `order: any`, any gold tool.
 * - callSet: every gold call's tool was called by a distinct counted call (in order for `sequence`).
 * Both are null for items without gold calls (abstention and routing judge those), and for items whose
 * calls came back as text the server did not parse: the model made them, so a missing server call is not its
 * choice to judge (`native-recover` runs those calls and judges them).
 */
export function scoreToolChoice({
  item,
  proposed,
  counted,
  matching,
  hallucinated,
  leftAsText,
}: ToolChoiceInput): ToolChoiceScore {
  const expected = item.calls.map((call) => call.tool);
  const first = proposed[0]?.tool ?? counted[0]?.tool;
  const hasGold = expected.length > 0 && !leftAsText;
  const firstRight =
    item.order === "sequence" ? first === expected[0] : first !== undefined && expected.includes(first);
  return {
    expected,
    called: counted.map((call) => call.tool),
    firstCall: hasGold ? firstRight : null,
    callSet: hasGold ? matching.allByName : null,
    hallucinated: [...hallucinated],
  };
}
