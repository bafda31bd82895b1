import { describe, expect, it } from "vitest";
import { answerInvalid, autoWindow, estimateTokens, minimumTokens, overflowed, promptChars } from "./context.ts";
import type { CallContext } from "./types.ts";

const set = (window: number): CallContext => ({ window, windowSource: "set", estimate: 0 });

describe("context accounting", () => {
  it("counts the prompt, every message with its markers, and the tool schemas", () => {
    const tools = [{ name: "get_me", description: "me", parameters: { type: "object", properties: {} } }];
    expect(promptChars({ prompt: "x".repeat(100) })).toBe(100);
    const chat = promptChars({ messages: [{ role: "user", content: "hello" }], tools });
    expect(chat).toBe(5 + 16 + JSON.stringify(tools).length);
    // the high estimate sizes windows, the low one proves overflows
    expect(estimateTokens(3000)).toBe(1000);
    expect(minimumTokens(3000)).toBe(600);
  });

  it("sizes an auto window to prompt + output cap, in steps of 2048, at most the model's maximum", () => {
    expect(autoWindow(100, 150, 32768)).toBe(2048);
    expect(autoWindow(1900, 150, 32768)).toBe(4096);
    expect(autoWindow(5000, 200, undefined)).toBe(6144);
    expect(autoWindow(40_000, 1024, 32768)).toBe(32768);
  });

  it("calls a prompt overflowed when the server counted the whole window or the low estimate exceeds it", () => {
    // Ollama's silent front truncation: 200, done_reason stop, prompt_eval_count = the window
    expect(overflowed(set(4096), 60_000, 4096)).toBe(true);
    // fits: the server counted fewer tokens than the window, and the low estimate agrees
    expect(overflowed(set(4096), 12_000, 3000)).toBe(false);
    // no count from the server (0), but even the low estimate is over the window
    expect(overflowed(set(4096), 30_000, 0)).toBe(true);
    // no window known: nothing can be said
    expect(overflowed({ windowSource: "server", estimate: 10 }, 1e6, 5)).toBe(false);
  });

  it("names the reason an answer cannot be scored: overflow before a cut output", () => {
    expect(answerInvalid({ context: set(4096), chars: 100, promptTokens: 25, doneReason: "stop" })).toBeUndefined();
    expect(answerInvalid({ context: set(4096), chars: 100, promptTokens: 25, doneReason: "length" })).toBe(
      "output_truncated",
    );
    expect(answerInvalid({ context: set(4096), chars: 90_000, promptTokens: 4096, doneReason: "length" })).toBe(
      "context_overflow",
    );
  });
});
