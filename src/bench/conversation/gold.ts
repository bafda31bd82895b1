/**
 * A conversation's gold as the simulator reads it: one entry per turn, found by the turn's user text
 * (the latest in a prompt that holds the history); an `ask` turn has two — its text, answered with the
 * question for the missing value (category `clarify`), and its reply, answered with the turn's calls.
 */
import type { SimGoldItem } from "../../models/sim/gold.ts";
import { type ConversationItem, turnAsItem } from "../dataset/types.ts";

export function conversationGold(conversation: ConversationItem): SimGoldItem[] {
  return conversation.turns.flatMap((turn, index) => {
    const item = turnAsItem(conversation, index);
    const entry = { ...item, turnOf: conversation.id, turnIndex: index + 1 };
    if (!turn.ask) return [entry];
    const question: SimGoldItem = {
      ...entry,
      id: `${item.id}:ask`,
      category: "clarify",
      route: "direct",
      calls: [],
      missing: turn.ask.missing ?? [],
    };
    delete question.answer;
    return [question, { ...entry, query: turn.ask.reply }];
  });
}
