import { describe, expect, it } from "vitest";
import {
  fromOpenAIMessages,
  fromOpenAISampling,
  fromOpenAIToolCalls,
  openAITimings,
  openAIUsage,
  ToolCallDeltas,
  toOpenAIMessages,
  toOpenAISampling,
  toOpenAIToolCalls,
} from "./openai-wire.ts";
import type { ChatMessage } from "./types.ts";

describe("OpenAI wire mapping", () => {
  it("parses the arguments string of a tool call", () => {
    expect(
      fromOpenAIToolCalls([{ id: "call_9", type: "function", function: { name: "get_me", arguments: '{"a":1}' } }]),
    ).toEqual([{ id: "call_9", name: "get_me", arguments: { a: 1 } }]);
  });

  it("reports an arguments string that is not a JSON object instead of dropping it", () => {
    const [broken, notObject] = fromOpenAIToolCalls([
      { function: { name: "list_issues", arguments: '{"owner": "acme", repo: webapp}' } },
      { function: { name: "list_issues", arguments: '["acme"]' } },
    ]);
    expect(broken).toMatchObject({
      id: "call_0",
      name: "list_issues",
      arguments: {},
      rawArguments: '{"owner": "acme", repo: webapp}',
    });
    expect(broken?.argumentsError).toMatch(/not valid JSON/);
    expect(notObject).toMatchObject({
      rawArguments: '["acme"]',
      argumentsError: "arguments are JSON but not an object",
    });
    // Sent back in a conversation exactly as the model wrote it.
    expect(toOpenAIToolCalls([broken!])[0]?.function.arguments).toBe('{"owner": "acme", repo: webapp}');
  });

  it("joins streamed tool-call fragments by index", () => {
    const deltas = new ToolCallDeltas();
    deltas.add([{ index: 1, id: "call_b", type: "function", function: { name: "get_me", arguments: "" } }]);
    deltas.add([{ index: 0, id: "call_a", type: "function", function: { name: "list_", arguments: '{"own' } }]);
    deltas.add([{ index: 0, function: { name: "issues", arguments: 'er":"acme"}' } }]);
    deltas.add([{ index: 1, function: { arguments: "{}" } }]);
    expect(deltas.finish()).toEqual([
      { id: "call_a", name: "list_issues", arguments: { owner: "acme" } },
      { id: "call_b", name: "get_me", arguments: {} },
    ]);
  });

  it("maps messages with tool calls and tool answers both ways", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "be brief" },
      { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "get_me", arguments: {} }] },
      { role: "tool", content: "ok", toolCallId: "call_1", toolName: "get_me" },
    ];
    const wire = toOpenAIMessages(messages);
    expect(wire[1]?.tool_calls?.[0]).toEqual({
      id: "call_1",
      type: "function",
      function: { name: "get_me", arguments: "{}" },
    });
    expect(wire[2]).toEqual({ role: "tool", content: "ok", tool_call_id: "call_1", name: "get_me" });
    expect(fromOpenAIMessages(wire)).toEqual(messages);
  });

  it("maps sampling options, leaving out what OpenAI has no field for", () => {
    const wire = toOpenAISampling({
      temperature: 0,
      maxTokens: 100,
      stop: ["x"],
      seed: 3,
      numCtx: 4096,
      keepAlive: "5m",
    });
    expect(wire).toEqual({ temperature: 0, max_tokens: 100, stop: ["x"], seed: 3 });
    expect(fromOpenAISampling({ ...wire, stop: "x" })).toEqual({
      temperature: 0,
      maxTokens: 100,
      stop: ["x"],
      seed: 3,
    });
  });

  it("takes usage from `usage`, else llama.cpp's timings; timings split only where llama.cpp reports it", () => {
    const llama = { prompt_n: 40, prompt_ms: 12.5, predicted_n: 9, predicted_ms: 80 };
    expect(openAIUsage({ prompt_tokens: 41, completion_tokens: 10 }, llama)).toEqual({
      promptTokens: 41,
      completionTokens: 10,
    });
    expect(openAIUsage(undefined, llama)).toEqual({ promptTokens: 40, completionTokens: 9 });
    expect(openAIUsage(undefined, undefined)).toEqual({ promptTokens: 0, completionTokens: 0 });
    expect(openAITimings(llama, 100)).toEqual({ totalMs: 100, promptEvalMs: 12.5, evalMs: 80 });
    expect(openAITimings(undefined, 100)).toEqual({ totalMs: 100 });
  });
});
