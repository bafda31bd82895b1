import { describe, expect, it } from "vitest";
import type { ChatMessage, ChatTool } from "../../src/models/types.ts";
import { fitToWindow, promptTokensOf, windowOf } from "./context-window.ts";
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
  it("measures the prompt by the stand-in's own rendering", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "s".repeat(80) },
      { role: "user", content: "the query" },
    ];
    const input = { kind: "chat" as const, messages, tools: [tool("t")] };
    // "system: sss…" 88, the tool's line, "user: the query" 15, two newlines
    const chars = 88 + 1 + toolChars("t") + 1 + 15;
    expect(fitToWindow(input, 4096)).toEqual({ input, promptTokens: Math.ceil(chars / 4), cut: false });
    expect(promptTokensOf(input)).toBe(Math.ceil(chars / 4));
    const cut = fitToWindow(input, 5);
    expect(cut).toEqual({ input: { kind: "chat", messages: [messages[1]] }, promptTokens: 5, cut: true });
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
