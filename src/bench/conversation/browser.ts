/** What the viewer's browser code may load from conversations: the types of a stored conversation record. */

export type { ConversationRecord, TurnRecord } from "./run-conversation.ts";
