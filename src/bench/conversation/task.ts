/**
 * A conversation as one task of a run: the run's loop leases the servers and hands them here; the
 * record it gets back is a standard record (the whole conversation's trace, every turn's state checks,
 * the conversation as one item score: item-score.ts) with the conversation itself beside it.
 */
import type { AgentResult } from "../../agent/types.ts";
import type { StateOutcome } from "../dataset/state-checks.ts";
import type { Category } from "../dataset/types.ts";
import type { ItemScore } from "../scoring/score-types.ts";
import { conversationItemScore } from "./item-score.ts";
import { type ConversationRecord, joinRuns, type RunConversationInput, runConversation } from "./run-conversation.ts";

/** A conversation record's `category` (none of the single-turn categories). */
export const CONVERSATION_CATEGORY = "conversation";

/** The configurations that hold a conversation, run when none is named. */
export const CONVERSATION_CONFIGS = ["onsetlab", "onsetlab-plus", "react", "native", "jsonl"] as const;

export interface ConversationTaskOutcome {
  /** Every turn's runs as one trace (its model calls, tool calls, costs and times). */
  result: AgentResult;
  /** Every turn's state checks, in turn order. */
  state: StateOutcome[];
  score: ItemScore;
  extra: { conversation: ConversationRecord };
}

export async function runConversationTask(
  input: RunConversationInput,
  category: Category,
): Promise<ConversationTaskOutcome> {
  const record = await runConversation(input);
  return {
    result: joinRuns(record.turns.flatMap((turn) => turn.runs)),
    state: record.turns.flatMap((turn) => turn.state),
    score: conversationItemScore(record, category),
    extra: { conversation: record },
  };
}
