/**
 * Who answers when the agent asks (scripted-user.ts decides that it asked). The scripted user is the
 * default: deterministic, from the item. `--user-model M` lets a model play the user instead: its prompt
 * is the item's turns (what the user says, and what they would answer where a turn may need a question)
 * and the agent's question; its answer is the reply, recorded on the turn with the model's name. A model
 * playing the user is itself a source of error (tau2-bench found the simulated user at fault in up to
 * 30% of failed runs): a run says when one did.
 */
import type { ModelProvider } from "../../models/types.ts";
import type { ConversationItem } from "../dataset/types.ts";
import { replyTo } from "./scripted-user.ts";

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
        // a free-text answer, as the solver's: the stages the servers and the simulator know
        stage: "solver",
        messages: userPlayerMessages(input),
        ...(input.signal ? { signal: input.signal } : {}),
      });
      return response.text.trim();
    },
  };
}

/** The user model's prompt: its script (the item's turns) and the agent's question. */
export function userPlayerMessages(input: UserReplyInput): { role: "system" | "user"; content: string }[] {
  const script = input.conversation.turns.map((turn, index) => {
    const lines = [`Turn ${index + 1}: you say: ${turn.user}`];
    if (turn.ask) lines.push(`  If the assistant asks for something missing here, you answer: ${turn.ask.reply}`);
    return lines.join("\n");
  });
  return [
    {
      role: "system",
      content: [
        "You play the user talking to an assistant. Your script, turn by turn:",
        ...script,
        `You are on turn ${input.index + 1}. The assistant asked you something. Reply as that user, in one or two ` +
          "sentences, with only what your script says; if it gives no answer to this question, tell the assistant " +
          "to go ahead with what it has.",
      ].join("\n"),
    },
    { role: "user", content: input.question },
  ];
}
