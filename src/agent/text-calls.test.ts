import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anyOutput, mangled, TEXT_CALL_SAMPLES } from "./testing/fuzz-corpus.ts";
import { findTextCalls, type TextCallFormat } from "./text-calls.ts";

const OFFERED = ["get_weather", "list_issues", "search-events", "get_me"];

interface Case {
  text: string;
  calls: { name: string; arguments: Record<string, unknown> }[];
  rest?: string;
}

const PARIS = { name: "get_weather", arguments: { city: "Paris" } };
const ACME = { name: "list_issues", arguments: { owner: "acme", state: "OPEN" } };

const FORMATS: Record<TextCallFormat, Case[]> = {
  hermes: [
    { text: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>', calls: [PARIS] },
    {
      text: 'Let me look.\n<tool_call>{"name":"get_weather","arguments":{"city":"Paris"}}</tool_call>\n<tool_call>{"name":"list_issues","arguments":{"owner":"acme","state":"OPEN"}}</tool_call>',
      calls: [PARIS, ACME],
      rest: "Let me look.",
    },
    // Qwen without its closing tag, arguments as a JSON string (OpenAI style)
    {
      text: '<tool_call>\n{"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}',
      calls: [PARIS],
    },
  ],
  mistral: [
    { text: '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}]', calls: [PARIS] },
    {
      text: '[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "list_issues", "arguments": {"owner": "acme", "state": "OPEN"}}]',
      calls: [PARIS, ACME],
    },
    // the newer template: name, [ARGS], the arguments
    { text: 'Checking.[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}', calls: [PARIS], rest: "Checking." },
  ],
  fenced_json: [
    { text: '```json\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n```', calls: [PARIS] },
    {
      text: 'I will call the tools:\n```\n[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"function": {"name": "list_issues", "arguments": {"owner": "acme", "state": "OPEN"}}}]\n```\nThen answer.',
      calls: [PARIS, ACME],
      rest: "I will call the tools:\n\nThen answer.",
    },
    { text: '```JSON\n{"get_weather": {"city": "Paris"}}\n```', calls: [PARIS] },
  ],
  llama3_json: [
    { text: '{"name": "get_weather", "parameters": {"city": "Paris"}}', calls: [PARIS] },
    { text: '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}', calls: [PARIS] },
    {
      text: 'Sure! {"name": "list_issues", "parameters": {"owner": "acme", "state": "OPEN"}} is what I need.',
      calls: [ACME],
      rest: "Sure!  is what I need.",
    },
  ],
  pythonic: [
    { text: '[get_weather(city="Paris")]', calls: [PARIS] },
    { text: "[get_weather(city='Paris'), list_issues(owner='acme', state='OPEN')]", calls: [PARIS, ACME] },
    // an MCP name Python cannot parse as written
    {
      text: 'Calling [search-events(query="offsite", limit=2)] now.',
      calls: [{ name: "search-events", arguments: { query: "offsite", limit: 2 } }],
      rest: "Calling  now.",
    },
  ],
  bfcl: [
    { text: 'get_weather(city="Paris")', calls: [PARIS] },
    { text: 'I will now run get_weather(city="Paris").', calls: [PARIS] },
    { text: "list_issues(owner='acme', state='OPEN'), get_me()", calls: [ACME, { name: "get_me", arguments: {} }] },
  ],
};

describe("findTextCalls: each format", () => {
  for (const [format, cases] of Object.entries(FORMATS)) {
    it.each(cases)(`${format}: %#`, (sample) => {
      const found = findTextCalls(sample.text, OFFERED);
      expect(found?.format).toBe(format);
      expect(found?.calls).toEqual(sample.calls);
      if (sample.rest !== undefined) expect(found?.rest).toBe(sample.rest);
    });
  }
});

describe("findTextCalls: what is not a call", () => {
  it.each([
    ["plain prose", "The weather in Paris is sunny today."],
    ["data that looks like a call object", '{"name": "Alice", "age": 3}'],
    ["a call to a tool not offered", '<tool_call>{"name": "delete_repo", "arguments": {"repo": "x"}}</tool_call>'],
    ["a pythonic call to a tool not offered", '[delete_repo(repo="x")]'],
    ["a call nested deep in other JSON", '{"a": {"b": [1, {"name": "get_weather", "arguments": {"city": "P"}}]}}'],
    ["a broken call (the JSON is cut)", '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}'],
    ["a tool's name in prose", "I could use get_weather for that, if you tell me the city."],
    ["code that only looks like a call", "Use print(x) or len(items) to check."],
    ["an empty answer", ""],
  ])("%s", (_, text) => {
    expect(findTextCalls(text, OFFERED)).toBeUndefined();
  });

  it("counts a call inside prose once, not once per format that could read it", () => {
    const text = 'Sure.\n```json\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n```\nDone.';
    expect(findTextCalls(text, OFFERED)?.calls).toEqual([PARIS]);
  });

  it("keeps only the offered calls of a mixed answer", () => {
    const text =
      '[TOOL_CALLS][{"name": "delete_repo", "arguments": {}}, {"name": "get_weather", "arguments": {"city": "Paris"}}]';
    expect(findTextCalls(text, OFFERED)?.calls).toEqual([PARIS]);
  });

  it("finds nothing when no tool is offered", () => {
    expect(findTextCalls('[get_weather(city="Paris")]', [])).toBeUndefined();
  });
});

describe("findTextCalls: hostile texts", () => {
  it("never throws, and every call it reports names an offered tool", () => {
    fc.assert(
      fc.property(fc.oneof(anyOutput(TEXT_CALL_SAMPLES), mangled(TEXT_CALL_SAMPLES, 10)), (text) => {
        const found = findTextCalls(text, OFFERED);
        for (const call of found?.calls ?? []) expect(OFFERED).toContain(call.name);
      }),
      { numRuns: 100, seed: 30 },
    );
    // generous: the machine may be loaded; the fuzz suite holds the parser to its time budget
  }, 30_000);

  it("reads a deeply nested text without overflowing", () => {
    const deep = `${"[".repeat(5000)}get_weather(city="P")${"]".repeat(5000)}`;
    expect(() => findTextCalls(deep, OFFERED)).not.toThrow();
    expect(() => findTextCalls(`<tool_call>${'{"a":'.repeat(3000)}`, OFFERED)).not.toThrow();
  });
});
