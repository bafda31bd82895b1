/**
 * The scripted user of a conversation item: deterministic, no model. It sends each turn's text; when the
 * agent asks, it answers with the turn's `ask.reply`, or — where no question was needed — with
 * GO_AHEAD, and the turn records the unneeded question.
 *
 * "The agent asked" is one rule (`askedUser`), not a guess: the run made no tool call, and the last
 * sentence of its answer ends with a question mark. A run that called a tool acted (even if it then asks
 * something); an answer that only contains a question mark inside a sentence (a quoted title) answered.
 */
import type { AgentResult } from "../../agent/types.ts";
import type { ConversationTurnSpec } from "../dataset/types.ts";

/** The scripted user's answer to a question it did not need to be asked. */
export const GO_AHEAD = "Please go ahead with what you have.";

/** Did this run end by asking the user something (the rule above)? */
export function askedUser(result: Pick<AgentResult, "toolCalls" | "answer">): boolean {
  if (result.toolCalls.some((call) => !call.blocked)) return false;
  return lastSentence(result.answer).endsWith("?");
}

function lastSentence(text: string): string {
  const trimmed = text.trim().replace(/["'”’)\]]+$/, "");
  const sentences = trimmed.split(/(?<=[.!?])\s+/).filter(Boolean);
  return sentences.at(-1) ?? "";
}

/** What the user says after the agent asked on this turn, and whether the question was needed. */
export function replyTo(turn: ConversationTurnSpec): { text: string; needed: boolean } {
  return turn.ask ? { text: turn.ask.reply, needed: true } : { text: GO_AHEAD, needed: false };
}
