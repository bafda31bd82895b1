import { describe, expect, it } from "vitest";
import { answerInvalid, autoWindow, estimateVerdict, overflowed } from "./context.ts";
import { estimateTokens } from "./prompt-size.ts";
import { promptChars, renderPrompt } from "./prompt-text.ts";
import type { CallContext } from "./types.ts";

const set = (window: number): CallContext => ({ window, windowSource: "set", estimate: 0, countSource: "estimate" });

describe("context accounting", () => {
  it("measures a prompt by its rendering: the text, every message with its role, the tool schemas", () => {
    const tools = [{ name: "get_me", description: "me", parameters: { type: "object", properties: {} } }];
    expect(promptChars({ prompt: "x".repeat(100) })).toBe(100);
    const messages = [{ role: "user" as const, content: "hello" }];
    const chat = promptChars({ messages, tools });
    expect(chat).toBe(renderPrompt({ messages, tools }).length);
    expect(chat).toBeGreaterThan("user: hello".length + JSON.stringify(tools).length);
    // the high estimate sizes windows, the low one proves overflows, the nominal one is the stand-in's
    expect(estimateTokens.high(3000)).toBe(1000);
    expect(estimateTokens.low(3000)).toBe(600);
    expect(estimateTokens.nominal(3000)).toBe(750);
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
    expect(overflowed({ windowSource: "server", estimate: 10, countSource: "estimate" }, 1e6, 5)).toBe(false);
  });

  it("lets the estimate decide only when both bounds agree: between chars/5 and chars/3 it cannot tell", () => {
    expect(estimateVerdict(12_288, 4096)).toBe("fits"); // 4096 by the high estimate
    expect(estimateVerdict(12_289, 4096)).toBe("undecided");
    expect(estimateVerdict(20_484, 4096)).toBe("undecided"); // 4096 by the low estimate
    expect(estimateVerdict(20_485, 4096)).toBe("overflows");
    expect(estimateVerdict(1e6, undefined)).toBe("fits");
  });

  it("takes the tokenizer's exact count over the low estimate, after the answer too", () => {
    const counted = (tokens: number): CallContext => ({ ...set(4096), countSource: "tokenizer", counted: tokens });
    // 20k characters is 4000 tokens at 5 a token, but the tokenizer counted 4100: it did not fit
    expect(overflowed(counted(4100), 20_000, 3000)).toBe(true);
    // 25k characters is 5000 tokens at 5 a token, but the tokenizer counted 4000: it fitted
    expect(overflowed(counted(4000), 25_000, 4000)).toBe(false);
    // a prompt of exactly the window's size was not cut, though the server reports the whole window
    expect(overflowed(counted(4096), 16_000, 4096)).toBe(false);
    // …but a server reporting the whole window for a prompt counted smaller did cut something
    expect(overflowed(counted(4000), 16_000, 4096)).toBe(true);
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
