import { describe, expect, it } from "vitest";
import {
  fromOllamaMessages,
  fromOllamaOptions,
  fromOllamaTools,
  ollamaTimings,
  ollamaUsage,
  toOllamaMessages,
  toOllamaOptions,
  toOllamaTools,
} from "./ollama-wire.ts";
import type { ChatMessage, ChatTool } from "./types.ts";

describe("Ollama wire mapping", () => {
  it("maps generation options to Ollama's names and back (keep_alive travels beside options)", () => {
    const options = { temperature: 0, seed: 7, maxTokens: 150, numCtx: 8192, stop: ["\n\n"], keepAlive: "10m" };
    const wire = toOllamaOptions(options);
    expect(wire).toEqual({ temperature: 0, seed: 7, num_predict: 150, num_ctx: 8192, stop: ["\n\n"] });
    expect(fromOllamaOptions(wire, "10m")).toEqual(options);
    expect(fromOllamaOptions(undefined)).toEqual({});
  });

  it("round-trips a conversation with a tool call and its answer", () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "who am I" },
      { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "get_me", arguments: { verbose: true } }] },
      { role: "tool", content: '{"login":"dev"}', toolName: "get_me", toolCallId: "call_1" },
    ];
    const wire = toOllamaMessages(messages);
    expect(wire[1]?.tool_calls).toEqual([
      { id: "call_1", function: { index: 0, name: "get_me", arguments: { verbose: true } } },
    ]);
    expect(wire[2]).toEqual({ role: "tool", content: '{"login":"dev"}', tool_name: "get_me" });
    // Ollama has no tool_call_id: the answer is matched by tool name.
    expect(fromOllamaMessages(wire)).toEqual([
      messages[0],
      messages[1],
      { role: "tool", content: '{"login":"dev"}', toolName: "get_me" },
    ]);
  });

  it("round-trips tools as function definitions", () => {
    const tools: ChatTool[] = [
      { name: "list_issues", description: "List issues", parameters: { type: "object", required: ["owner"] } },
    ];
    expect(toOllamaTools(tools)[0]).toEqual({
      type: "function",
      function: {
        name: "list_issues",
        description: "List issues",
        parameters: { type: "object", required: ["owner"] },
      },
    });
    expect(fromOllamaTools(toOllamaTools(tools))).toEqual(tools);
  });

  it("converts nanosecond durations to milliseconds and counts to usage", () => {
    const metrics = {
      total_duration: 2_500_000_000,
      load_duration: 500_000_000,
      prompt_eval_count: 120,
      prompt_eval_duration: 250_000_000,
      eval_count: 30,
      eval_duration: 1_500_000_000,
    };
    expect(ollamaTimings(metrics, 9999)).toEqual({ totalMs: 2500, loadMs: 500, promptEvalMs: 250, evalMs: 1500 });
    expect(ollamaUsage(metrics)).toEqual({ promptTokens: 120, completionTokens: 30 });
    expect(ollamaTimings({}, 12.5)).toEqual({ totalMs: 12.5 });
  });
});
