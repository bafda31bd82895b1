/**
 * Who answers when the agent asks (scripted-user.ts decides that it asked). The scripted user is the
 * default: deterministic, from the item. `--user-model M` lets a model play the user instead: its prompt
 * is the item's turns (what the user says, and what they would answer where a turn may need a question)
 * and the agent's question; its answer is the reply, recorded on the turn with the model's name. A model
 * playing the user is itself a source of error (tau2-bench found the simulated user at fault in up to
 * 30% of failed runs): a run says when one did.
 */
import { PROTOCOL } from "../../models/protocol.ts";
import type { ModelProvider } from "../../models/types.ts";
import type { ConversationItem } from "../dataset/types.ts";
import { GO_AHEAD, replyTo } from "./scripted-user.ts";

export interface UserReplyInput {
  conversation: ConversationItem;
  /** 0-based index of the turn the agent asked on. */
  index: number;
  /** The agent's answer that asked. */
  question: string;
  signal?: AbortSignal;
}

export interface UserPlayer {
  /** The model's name, or undefined for the scripted user. */
  readonly model?: string;
  reply(input: UserReplyInput): Promise<string>;
}

export const SCRIPTED_USER: UserPlayer = {
  reply: async ({ conversation, index }) => replyTo(conversation.turns[index]!).text,
};

/** A model playing the user; `name` is what the run records (the models.yaml entry). */
export function modelUser(name: string, model: ModelProvider): UserPlayer {
  return {
    model: name,
    async reply(input) {
      const response = await model.chat({
        // its own stage: the simulator (and the stand-in) must answer as the user, not as the agent
        stage: "user",
        messages: userPlayerMessages(input),
        ...(input.signal ? { signal: input.signal } : {}),
      });
      return response.text.trim();
    },
  };
}

/**
 * The user model's prompt (PROTOCOL's user-play lines): its script (the item's turns, with the answer
 * the item gives where a turn may need a question), the turn it is on, what to say when the script has
 * no answer (the scripted user's words), and the agent's question as the last message.
 */
export function userPlayerMessages(input: UserReplyInput): { role: "system" | "user"; content: string }[] {
  const script = input.conversation.turns.map((turn, index) => {
    const lines = [`${PROTOCOL.userTurn(index + 1)} ${turn.user}`];
    if (turn.ask) lines.push(`  ${PROTOCOL.userAnswer} ${turn.ask.reply}`);
    return lines.join("\n");
  });
  return [
    {
      role: "system",
      content: [
        `${PROTOCOL.userPlay} Your script, turn by turn:`,
        ...script,
        `${PROTOCOL.userOnTurn(input.index + 1)} The assistant asked you something. Reply as that user, in one or ` +
          "two sentences, with only what your script says.",
        `${PROTOCOL.userNoAnswer} ${GO_AHEAD}`,
      ].join("\n"),
    },
    { role: "user", content: input.question },
  ];
}
