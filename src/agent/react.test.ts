import { describe, expect, it } from "vitest";
import { parseReactOutput } from "./react.ts";

describe("parseReactOutput", () => {
  it.each<[string, string, Record<string, unknown>]>([
    [
      "JSON input",
      ' I need the issues.\nAction: list_issues\nAction Input: {"owner": "acme", "repo": "webapp"}',
      { thought: "I need the issues.", action: "list_issues", input: { owner: "acme", repo: "webapp" } },
    ],
    [
      "a final answer",
      " I know it.\nFinal Answer: There are 2 issues.",
      { thought: "I know it.", final: "There are 2 issues.", action: undefined },
    ],
    [
      "an action before an imagined final answer",
      'x\nAction: get_me\nAction Input: {}\nObservation: {"login":"a"}\nFinal Answer: a',
      { action: "get_me", input: {}, final: undefined },
    ],
    [
      "sloppy JSON repaired",
      "go\nAction: list_issues\nAction Input: {owner: 'acme', repo: 'webapp',}",
      { action: "list_issues", input: { owner: "acme", repo: "webapp" } },
    ],
    [
      "key=value input",
      'go\nAction: list_issues\nAction Input: owner="acme", repo=webapp',
      { action: "list_issues", input: { owner: "acme", repo: "webapp" } },
    ],
    [
      "a bare value input",
      "go\nAction: tavily_search\nAction Input: MCP news",
      { action: "tavily_search", input: "MCP news" },
    ],
    [
      "call syntax in the Action line",
      'go\nAction: list_issues(owner="acme", repo="webapp")',
      { action: "list_issues", input: { owner: "acme", repo: "webapp" } },
    ],
    [
      "markdown and backticks",
      "**Thought:** go\n**Action:** `get_me`\n**Action Input:** ```json\n{}\n```",
      { action: "get_me", input: {} },
    ],
    ["an action without input", "go\nAction: get_me", { action: "get_me", input: {} }],
    ["neither", "I am thinking about it.", { error: "no Action or Final Answer", thought: "I am thinking about it." }],
    ["an empty action", "go\nAction: \nAction Input: {}", { error: "empty Action" }],
  ])("%s", (_, text, expected) => {
    const parsed = parseReactOutput(text) as unknown as Record<string, unknown>;
    const picked = Object.fromEntries(Object.keys(expected).map((key) => [key, parsed[key]]));
    expect(picked).toEqual(expected);
  });
});
