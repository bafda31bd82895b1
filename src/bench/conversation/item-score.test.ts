import { describe, expect, it } from "vitest";
import { scoreItem } from "../scoring/score-item.ts";
import { CREATE_ISSUE, call, item, TOOLS, trace } from "../scoring/testing/fixtures.ts";
import { conversationItemScore } from "./item-score.ts";
import type { ConversationRecord, TurnRecord } from "./run-conversation.ts";

const gold = item({ id: "c-1", calls: [CREATE_ISSUE] });
const right = scoreItem({
  item: gold,
  trace: trace({ toolCalls: [call(1, CREATE_ISSUE.tool, CREATE_ISSUE.args)] }),
  stateChecks: [],
  tools: TOOLS,
});
const wrong = scoreItem({ item: gold, trace: trace({ toolCalls: [] }), stateChecks: [], tools: TOOLS });

// the item score reads the turns' scores, not their runs
function turn(index: number, changes: Partial<TurnRecord>): TurnRecord {
  const base = { index, user: `turn ${index}`, runs: [], askNeeded: false, asked: false, state: [], score: right };
  const merged = { ...base, ...changes };
  return { ...merged, ok: merged.score.taskSuccess && merged.asked === merged.askNeeded };
}

function conversation(turns: TurnRecord[]): ConversationRecord {
  const failing = turns.findIndex((entry) => !entry.ok);
  return {
    id: "c-1",
    kind: "follow_up",
    turns,
    success: failing < 0,
    firstFailingTurn: failing < 0 ? null : failing,
    turnsCompleted: failing < 0 ? turns.length : failing,
  };
}

describe("a conversation's failure kinds", () => {
  it("name a needless question when it is the failing turn's only fault", () => {
    const score = conversationItemScore(conversation([turn(0, {}), turn(1, { asked: true })]), gold.category);
    expect(right.failures).toEqual([]);
    expect(score.taskSuccess).toBe(false);
    expect(score.failures).toEqual(["asked_needlessly"]);
  });

  it("keep the failing turn's own kinds, and none on success", () => {
    const failed = conversationItemScore(conversation([turn(0, {}), turn(1, { score: wrong })]), gold.category);
    expect(failed.failures).toEqual(wrong.failures);
    expect(failed.failures).not.toContain("asked_needlessly");
    // a needed question is no fault
    const asked = conversationItemScore(conversation([turn(0, { askNeeded: true, asked: true })]), gold.category);
    expect(asked.failures).toEqual([]);
  });
});
