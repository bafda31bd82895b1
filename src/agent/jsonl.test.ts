import { describe, expect, it } from "vitest";
import { parseJsonl } from "./jsonl.ts";

describe("parseJsonl", () => {
  it.each<[string, string, unknown[], number]>([
    [
      "one call",
      '{"type":"tool_call","name":"get_me","arguments":{}}',
      [{ type: "tool_call", name: "get_me", arguments: {} }],
      0,
    ],
    [
      "calls and prose lines",
      'Let me check.\n{"type":"tool_call","name":"a","arguments":{"x":1}}\n{"type":"tool_call","name":"b","arguments":{}}',
      [
        { type: "tool_call", name: "a", arguments: { x: 1 } },
        { type: "tool_call", name: "b", arguments: {} },
      ],
      0,
    ],
    ["a final answer", '{"type":"final_answer","content":"42"}', [{ type: "final_answer", content: "42" }], 0],
    [
      "sloppy JSON repaired",
      "{type: 'tool_call', name: 'get_me', arguments: {},}",
      [{ type: "tool_call", name: "get_me", arguments: {} }],
      0,
    ],
    [
      "arguments as a JSON string",
      '{"type":"tool_call","name":"a","arguments":"{\\"q\\": \\"x\\"}"}',
      [{ type: "tool_call", name: "a", arguments: { q: "x" } }],
      0,
    ],
    [
      "an object over several lines",
      '```json\n{\n  "type": "final_answer",\n  "content": "done"\n}\n```',
      [{ type: "final_answer", content: "done" }],
      1,
    ],
    [
      "an untyped call",
      '{"name":"a","arguments":{"k":"v"}}',
      [{ type: "tool_call", name: "a", arguments: { k: "v" } }],
      0,
    ],
    ["an array of events", '[{"type":"final_answer","content":"x"}]', [{ type: "final_answer", content: "x" }], 0],
    ["prose only", "I think the answer is 42.", [], 1],
    ["not a protocol object", '{"hello": "world"}', [], 1],
    [
      "non-string content",
      '{"type":"final_answer","content":{"n":1}}',
      [{ type: "final_answer", content: '{"n":1}' }],
      0,
    ],
  ])("%s", (_, text, events, errorCount) => {
    const parsed = parseJsonl(text);
    expect(parsed.events).toEqual(events);
    expect(parsed.errors).toHaveLength(errorCount);
  });
});
