import { describe, expect, it } from "vitest";
import { estimateTokens, fitToWindow, sharedPrefixChars, wholeTokens } from "./prompt-size.ts";
import { promptRenderer, renderPrompt, toolText } from "./prompt-text.ts";
import type { ChatMessage, ChatTool } from "./types.ts";

const tool = (name: string): ChatTool => ({ name, description: "d", parameters: { type: "object" } });
const fitHarness = <T extends Parameters<typeof fitToWindow>[0]>(input: T, window: number) =>
  fitToWindow(input, window, promptRenderer);

describe("token estimates", () => {
  it("ranks low ≤ nominal ≤ high and counts whole nominal tokens of a shared prefix", () => {
    for (const chars of [0, 1, 7, 300, 12_345]) {
      expect(estimateTokens.low(chars)).toBeLessThanOrEqual(estimateTokens.nominal(chars));
      expect(estimateTokens.nominal(chars)).toBeLessThanOrEqual(estimateTokens.high(chars));
    }
    expect(wholeTokens(sharedPrefixChars("abcdefghij", "abcdefghXY"))).toBe(2);
  });
});

describe("fitToWindow", () => {
  it("keeps the last 4 × window characters of a text prompt", () => {
    const fitted = fitHarness({ kind: "complete", prompt: `${"a".repeat(100)}TAIL` }, 5);
    expect(fitted).toEqual({
      input: { kind: "complete", prompt: `${"a".repeat(16)}TAIL` },
      promptTokens: 5,
      cut: true,
    });
  });

  it("drops whole old messages first, keeping the system messages and the last message", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "rules" },
      { role: "user", content: "u".repeat(200) },
      { role: "assistant", content: "a".repeat(40) },
      { role: "user", content: "last" },
    ];
    // "system: rules" 13 + "assistant: aaa…" 51 + "user: last" 10, two newlines: 76 chars = 19 tokens.
    const fitted = fitHarness({ kind: "chat", messages }, 20);
    expect(fitted).toEqual({
      input: { kind: "chat", messages: [messages[0], messages[2], messages[3]] },
      promptTokens: 19,
      cut: false,
    });
  });

  it("never keeps a tool result without the assistant turn that called it", () => {
    const call = { name: "get_me", arguments: {} };
    const messages: ChatMessage[] = [
      { role: "user", content: "u".repeat(400) },
      { role: "assistant", content: "", toolCalls: [call] },
      { role: "tool", content: "r".repeat(30) },
      { role: "tool", content: "last result" },
    ];
    const window = estimateTokens.nominal(renderPrompt({ messages: messages.slice(1) }).length);
    expect(fitHarness({ kind: "chat", messages }, window).input).toEqual({ kind: "chat", messages: messages.slice(1) });
  });

  it("then cuts the rendered prompt from the front: system prompt, tool list, oldest messages", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "s".repeat(80) },
      { role: "user", content: "the query" },
    ];
    const tools = [tool("first"), tool("second")];
    // Room for the user message ("user: the query" = 15), the last tool and a newline each.
    const budget = 15 + 1 + toolText(tool("second")).length + 1 + 10;
    const fitted = fitHarness({ kind: "chat", messages, tools }, Math.floor(budget / 4));
    expect(fitted.promptTokens).toBe(Math.floor(budget / 4));
    expect(fitted.input).toEqual({ kind: "chat", messages: [messages[1]], tools: [tools[1]] });

    const noTools = fitHarness({ kind: "chat", messages, tools }, 5);
    expect(noTools.input).toEqual({ kind: "chat", messages: [{ role: "user", content: "the query" }] });
  });

  it("keeps the tail of the message the cut falls in, and other fields of the request", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: `${"s".repeat(100)}END` },
      { role: "user", content: "q" },
    ];
    // 40 characters: "user: q" and a newline, then the last 32 of the system prompt.
    const fitted = fitHarness({ kind: "chat", stage: "native", messages }, 10);
    expect(fitted.input).toEqual({
      kind: "chat",
      stage: "native",
      messages: [{ role: "system", content: `${"s".repeat(29)}END` }, messages[1]],
    });
  });

  it("leaves a prompt that fits alone", () => {
    const input = { kind: "chat" as const, messages: [{ role: "user" as const, content: "hi" }], tools: [tool("t")] };
    const fitted = fitHarness(input, 4096);
    expect(fitted.input).toBe(input);
    expect(fitted.promptTokens).toBe(estimateTokens.nominal(renderPrompt(input).length));
  });
});
