import { describe, expect, it } from "vitest";
import { GoldIndex } from "./gold.ts";
import { readRequest } from "./reading.ts";
import { readToolLine } from "./shown-tools.ts";
import { TEST_ITEMS } from "./testing/items.ts";

const gold = new GoldIndex(TEST_ITEMS);

function planner(prompt: string) {
  return readRequest({ kind: "complete", stage: "planner", prompt }, gold);
}

describe("skill blocks in a prompt", () => {
  it("are the lines that end in ` rules:`, as the line-anchored pattern reads them", () => {
    const prompts = [
      "Intro\nGitHub rules:\n- owner and repo are separate\n\nSlack rules:\n- channel ids",
      "Slack rules:\r\n- a CRLF line\rNotion rules:",
      "A rules: B rules:\nnot rules: here\n rules:\nrules:\nLast rules:",
      "\u2028Calendar rules:\u2029GitHub  rules:\n",
      "no skills here",
    ];
    for (const prompt of prompts) {
      const expected = [...prompt.matchAll(/^(.+) rules:$/gm)].map((match) => match[1]);
      expect(planner(prompt).skillTitles, JSON.stringify(prompt)).toEqual(expected);
    }
    expect(planner(prompts[0] as string).skillTitles).toEqual(["GitHub", "Slack"]);
  });
});

describe("the tools a prompt shows", () => {
  const lines = [
    'list_issues(owner="octocat", repo="hello", state="OPEN"|"CLOSED") - List issues',
    "get_me() - Who am I",
    "not a tool line",
  ];

  it("are the tool lines from the heading to the first blank line, read the same every time", () => {
    const expected = [readToolLine(lines[0] as string), readToolLine(lines[1] as string)];
    for (const prompt of [
      `Plan.\nTools:\n${lines.join("\n")}\n\nQuestion: x`,
      `Plan.\nTools:\n\n${lines.join("\n")}`,
      `Plan.\nTools:\n${lines.join("\n")}`,
    ]) {
      expect(planner(prompt).tools).toEqual(expected);
      expect(planner(prompt).tools).toEqual(expected);
    }
    // one newline after the heading is skipped; a blank line after it ends the section at once
    expect(planner(`Plan.\nTools:\n\n\n\n${lines.join("\n")}`).tools).toEqual([]);
    expect(planner("Plan without tools.").tools).toEqual([]);
  });

  it("read OnsetLab's placeholder lines: every required parameter, `or` enums, abstract values", () => {
    expect(
      readToolLine(
        'issue_read(method="get" or "get_comments", owner="...", issue_number=N, labels=[...]) - Get an issue',
      ),
    ).toEqual({
      name: "issue_read",
      required: ["method", "owner", "issue_number", "labels"],
      examples: { method: "get", owner: "...", issue_number: "N", labels: "[...]" },
      enums: { method: ["get", "get_comments"] },
    });
    expect(readToolLine('list_issues(state="OPEN" (or: CLOSED, ALL...), repo="...") - List')).toMatchObject({
      required: ["state", "repo"],
      enums: { state: ["OPEN", "CLOSED", "ALL"] },
    });
  });
});
