import { describe, expect, it } from "vitest";
import { type AgentConfig, type AgentResult, DEFAULT_AGENT_CONFIG } from "../../agent/types.ts";
import { scoreItem } from "../scoring/score-item.ts";
import { CREATE_ISSUE, call, item, TOOLS, trace } from "../scoring/testing/fixtures.ts";
import type { ConversationRecord } from "./run-conversation.ts";
import { scoreConversation } from "./score.ts";

// a turn that needs two calls, and a run that made the first only
const gold = item({
  id: "c-2",
  calls: [CREATE_ISSUE, { ...CREATE_ISSUE, args: { ...CREATE_ISSUE.args, title: "Two" } }],
});
const made = trace({ toolCalls: [call(1, CREATE_ISSUE.tool, CREATE_ISSUE.args)] });
const score = scoreItem({ item: gold, trace: made, stateChecks: [], tools: TOOLS });

function failed(config: Partial<AgentConfig>): ConversationRecord {
  const run = { ...made, config: { ...DEFAULT_AGENT_CONFIG, ...config } } as AgentResult;
  const turn = {
    index: 0,
    user: "two issues",
    runs: [run],
    askNeeded: false,
    asked: false,
    state: [],
    score,
    ok: false,
  };
  return { id: "c-2", kind: "long", turns: [turn], success: false, firstFailingTurn: 0, turnsCompleted: 0 };
}

describe("a conversation's failure class", () => {
  it("names OnsetLab's one-step plan only when the run was configured with it", () => {
    expect(score.failures).toContain("missing_call");
    expect(scoreConversation(failed({ planSteps: "one" })).failure).toBe("onsetlab_one_step");
    expect(scoreConversation(failed({ planSteps: "many" })).failure).toBe("turn_failed");
  });
});
