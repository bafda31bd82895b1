import { describe, expect, it } from "vitest";
import type { ChatMessage, ChatTool } from "../../src/models/types.ts";
import { fitToWindow, windowOf } from "./context-window.ts";
import { cutOutput, measureOutput } from "./output.ts";

const tool = (name: string): ChatTool => ({ name, description: "d", parameters: { type: "object" } });
const toolChars = (name: string) => JSON.stringify({ type: "function", function: tool(name) }).length;

describe("windowOf", () => {
  it("takes the request's num_ctx, else the default, never above the model's trained length", () => {
    expect(windowOf(8192, 4096, 32_768)).toBe(8192);
    expect(windowOf(undefined, 4096, 32_768)).toBe(4096);
    expect(windowOf(65_536, 4096, 8192)).toBe(8192);
  });
});

describe("fitToWindow", () => {
  it("keeps the last 4 × window characters of a text prompt", () => {
    const fitted = fitToWindow({ kind: "complete", prompt: `${"a".repeat(100)}TAIL` }, 5);
    expect(fitted).toEqual({
      input: { kind: "complete", prompt: `${"a".repeat(16)}TAIL` },
      promptTokens: 5,
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
    const fitted = fitToWindow({ kind: "chat", messages }, 20);
    expect(fitted.input).toEqual({ kind: "chat", messages: [messages[0], messages[2], messages[3]] });
    expect(fitted.promptTokens).toBe(19);
  });

  it("then cuts the rendered prompt from the front: system prompt, tool list, oldest messages", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "s".repeat(80) },
      { role: "user", content: "the query" },
    ];
    const tools = [tool("first"), tool("second")];
    // Room for the user message ("user: the query" = 15), the last tool and a newline each.
    const budget = 15 + 1 + toolChars("second") + 1 + 10;
    const fitted = fitToWindow({ kind: "chat", messages, tools }, Math.floor(budget / 4));
    expect(fitted.promptTokens).toBe(Math.floor(budget / 4));
    expect(fitted.input).toEqual({ kind: "chat", messages: [messages[1]], tools: [tools[1]] });
  });

  it("keeps the tail of the message the cut falls in", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: `${"s".repeat(100)}END` },
      { role: "user", content: "q" },
    ];
    // 40 characters: "user: q" and a newline, then the last 32 of the system prompt.
    const fitted = fitToWindow({ kind: "chat", messages }, 10);
    expect(fitted.input).toEqual({
      kind: "chat",
      messages: [{ role: "system", content: `${"s".repeat(29)}END` }, messages[1]],
    });
  });

  it("leaves a prompt that fits alone", () => {
    const input = { kind: "chat" as const, messages: [{ role: "user" as const, content: "hi" }], tools: [tool("t")] };
    expect(fitToWindow(input, 4096)).toEqual({
      input,
      promptTokens: Math.ceil((8 + 1 + toolChars("t")) / 4),
    });
  });
});

describe("cutOutput", () => {
  const call = { id: "c", name: "get_me", arguments: { a: 1 } };

  it("leaves an output within the limit, counting thinking, text and calls", () => {
    const output = measureOutput("think", "text", [call]);
    expect(cutOutput(output, 100)).toBe(output);
    expect(output.tokens).toBe(
      Math.ceil(("thinktext".length + JSON.stringify({ name: "get_me", arguments: { a: 1 } }).length) / 4),
    );
  });

  it("spends the budget on thinking first, then text; a call that does not fit whole is lost", () => {
    const cut = cutOutput(measureOutput("t".repeat(10), "x".repeat(10), [call]), 4);
    expect(cut).toEqual({ thinking: "t".repeat(10), text: "x".repeat(6), toolCalls: [], tokens: 4, reason: "length" });
  });
});
