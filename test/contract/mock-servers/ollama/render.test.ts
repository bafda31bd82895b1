import { describe, expect, it } from "vitest";
import { cachedAfterAnswer, renderStandinPrompt, toolCallsLine } from "../../../../mock-servers/ollama/render.ts";
import { cachedAfter, callsText, renderPrompt } from "../../../../src/models/prompt-text.ts";
import type { ChatMessage, ChatTool } from "../../../../src/models/types.ts";

// The stand-in renders with code of its own; the harness predicts its prompt cache and token counts
// from its own rendering. The two must lay a request out alike.
const tools: ChatTool[] = [
  {
    name: "list_issues",
    description: "List issues",
    parameters: { type: "object", properties: { repo: { type: "string" } } },
  },
  { name: "get_me", description: "Who am I", parameters: { type: "object" } },
];
const messages: ChatMessage[] = [
  { role: "system", content: "You call tools." },
  { role: "user", content: "List the open issues of acme/api" },
  { role: "assistant", content: "", toolCalls: [{ name: "list_issues", arguments: { repo: "acme/api" } }] },
  { role: "tool", content: '{"issues":[]}' },
  { role: "system", content: "Answer briefly." },
];

describe("the stand-in's rendering and the harness's", () => {
  it("lay out a chat alike: system messages, tools, then the conversation with its tool calls", () => {
    expect(renderStandinPrompt({ kind: "chat", messages, tools })).toBe(renderPrompt({ messages, tools }));
    expect(renderStandinPrompt({ kind: "chat", messages: messages.slice(1, 2) })).toBe(
      renderPrompt({ messages: messages.slice(1, 2) }),
    );
  });

  it("leave the same text in a slot's cache after an answer", () => {
    const calls = [{ id: "c1", name: "get_me", arguments: {} }];
    const chat = { messages, tools };
    const prompt = renderPrompt(chat);
    expect(cachedAfterAnswer({ kind: "chat", ...chat }, prompt, `ok${toolCallsLine(calls)}`)).toBe(
      cachedAfter(chat, prompt, `ok${callsText(calls)}`),
    );
    expect(cachedAfterAnswer({ kind: "complete", prompt: "Task: x" }, "Task: x", "y")).toBe(
      cachedAfter({ prompt: "Task: x" }, "Task: x", "y"),
    );
  });
});
