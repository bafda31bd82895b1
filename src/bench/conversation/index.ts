/** The conversation part's public surface: run a conversation turn by turn, its gold, its score, its task and the model-played user. */

export { conversationGold } from "./gold.ts";
export { modelUser, type UserPlayer } from "./model-user.ts";
export { type ConversationRecord, joinRuns, runConversation, type TurnRecord } from "./run-conversation.ts";
export {
  CONVERSATION_FAILURES,
  type ConversationRow,
  type ConversationScore,
  scoreConversation,
  summariseRow,
} from "./score.ts";
export { CONVERSATION_CATEGORY, CONVERSATION_CONFIGS, runConversationTask } from "./task.ts";
