import { describe, expect, it } from "vitest";
import { SAMPLE_TOOLS } from "../../agent/testing/definitions.ts";
import { FakeToolHost, succeed } from "../../agent/testing/fake-host.ts";
import { resolveAgentConfig } from "../../agent/types.ts";
import { ScriptedModel } from "../../models/scripted.ts";
import { createSimProvider } from "../../models/sim/index.ts";
import type { ChatRequest } from "../../models/types.ts";
import { conversationGold } from "./gold.ts";
import { modelUser, SCRIPTED_USER, type UserReplyInput, userPlayerMessages } from "./model-user.ts";
import { runConversation } from "./run-conversation.ts";
import { GO_AHEAD } from "./scripted-user.ts";
import { CLARIFY_CONVERSATION } from "./testing/clarify.ts";

const QUESTION = "Which repository do you mean?";

async function converse(user?: ReturnType<typeof modelUser>) {
  const agent = new ScriptedModel({
    native: [
      QUESTION,
      { toolCalls: [{ name: "list_issues", arguments: { owner: "acme", repo: "api" } }] },
      "There is one open issue.",
      "You're welcome.",
    ],
  });
  const record = await runConversation({
    conversation: CLARIFY_CONVERSATION,
    session: {
      tools: new FakeToolHost(SAMPLE_TOOLS, { list_issues: () => succeed([{ number: 1, title: "Pool exhausted" }]) }),
      runStateChecks: async () => [],
    },
    model: agent,
    config: resolveAgentConfig({ strategy: "native" }),
    ...(user ? { user } : {}),
  });
  return { record, agent };
}

describe("a model playing the user", () => {
  it("answers the agent's question from its script; the turn records the answer and who gave it", async () => {
    const userModel = new ScriptedModel({ user: ["It's acme/api, please."] }, "scripted:user");
    const { record, agent } = await converse(modelUser("user-3b", userModel));
    expect(record.userModel).toBe("user-3b");
    const [first, second] = record.turns;
    expect(first).toMatchObject({ asked: true, askNeeded: true, reply: "It's acme/api, please.", replyBy: "user-3b" });
    expect(second?.replyBy).toBeUndefined();
    // the agent's second run of the turn got the model's words, not the script's
    const secondRun = agent.requests[1];
    expect(secondRun?.kind === "chat" && secondRun.messages.at(-1)?.content).toBe("It's acme/api, please.");
    // its prompt: every turn of the item, the reply the script holds, the agent's question
    const prompt = userModel.requests[0];
    const text = prompt?.kind === "chat" ? prompt.messages.map((message) => message.content).join("\n") : "";
    for (const part of ["List the open issues.", "Thanks, that's all.", "you answer: acme/api", "turn 1", QUESTION]) {
      expect(text).toContain(part);
    }
    userModel.assertFinished();
  });

  it("by default the scripted user answers, and nothing says a model played it", async () => {
    const { record } = await converse();
    expect(record.userModel).toBeUndefined();
    expect(record.turns[0]).toMatchObject({ asked: true, reply: "acme/api" });
    expect(record.turns[0]?.replyBy).toBeUndefined();
    await expect(SCRIPTED_USER.reply({ conversation: CLARIFY_CONVERSATION, index: 1, question: "?" })).resolves.toBe(
      "Please go ahead with what you have.",
    );
  });

  it("puts the agent's question last, as the message the user model answers", () => {
    const messages = userPlayerMessages({ conversation: CLARIFY_CONVERSATION, index: 1, question: "Anything else?" });
    expect(messages.at(-1)).toEqual({ role: "user", content: "Anything else?" });
    expect(messages[0]?.content).toContain("You are on turn 2");
  });
});

describe("the simulator playing the user (the user stage)", () => {
  const ASKED: UserReplyInput = { conversation: CLARIFY_CONVERSATION, index: 0, question: QUESTION };
  const request = (input: UserReplyInput): ChatRequest => ({ stage: "user", messages: userPlayerMessages(input) });
  const sim = (profile: string, seed: number, gold = conversationGold(CLARIFY_CONVERSATION)) =>
    createSimProvider({ profile, seed, gold });
  // what an agent's answer looks like in the simulator's protocols: none may come back as the user's words
  const AGENT_LIKE = /#E\d|Action:|Final Answer:|"type":"tool_call"|^(ACTION|DIRECT)$|Simulated:/;

  it("answers as the user: the script's answer on an ask turn, the go-ahead elsewhere, no tool call", async () => {
    for (const gold of [conversationGold(CLARIFY_CONVERSATION), []]) {
      const model = sim("oracle", 1, gold);
      const asked = await model.chat(request(ASKED));
      expect(asked).toMatchObject({ text: "acme/api", toolCalls: [] });
      const unneeded = await model.chat(request({ ...ASKED, index: 1, question: "Shall I close it?" }));
      expect(unneeded).toMatchObject({ text: GO_AHEAD, toolCalls: [] });
    }
    await expect(modelUser("sim:oracle", sim("oracle", 1)).reply(ASKED)).resolves.toBe("acme/api");
  });

  it("slm-3b: mostly the scripted answer; otherwise part of it or the request again, never an agent's answer", async () => {
    const replies = new Map<string, number>();
    for (let seed = 1; seed <= 400; seed++) {
      const { text, toolCalls } = await sim("slm-3b", seed).chat(request(ASKED));
      expect(toolCalls).toEqual([]);
      expect(text).not.toMatch(AGENT_LIKE);
      replies.set(text, (replies.get(text) ?? 0) + 1);
    }
    expect([...replies.keys()].sort()).toEqual(["List the open issues.", "acme/api", "api"]);
    // profiles.json: partial_answer 4%, repeated_request 2% (400 draws: the scripted answer 94% ± a few)
    expect(replies.get("acme/api")).toBeGreaterThan(360);
  });

  it("is deterministic per seed: the same seed, the same reply; seeds differ where mistakes are drawn", async () => {
    const replies = async (seed: number) =>
      Promise.all(
        ["Which repo?", "Which repository do you mean?", "Owner and repo, please?"].map(async (question) => {
          const { text } = await sim("chaos", seed).chat(request({ ...ASKED, question }));
          return text;
        }),
      );
    const bySeed = await Promise.all([1, 2, 3, 4, 5, 6].map(replies));
    expect(await Promise.all([1, 2, 3, 4, 5, 6].map(replies))).toEqual(bySeed);
    expect(new Set(bySeed.flat()).size).toBeGreaterThan(1);
  });
});
