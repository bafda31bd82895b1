import { describe, expect, it } from "vitest";
import { mergeSelection, parseSelectorAnswer } from "./selector.ts";
import { sampleTool } from "./testing/definitions.ts";

const tools = ["list_issues", "issue_read", "issue_write", "get_me", "slack_post_message"].map(sampleTool);

describe("parseSelectorAnswer", () => {
  it("reads names after bullets, numbers, quotes and a server prefix, ignoring case, each once, in order", () => {
    const text = "1. `issue_read`\n- github.Issue_Write\n* issue_read\nslack_post_message, get_me";
    expect(parseSelectorAnswer(text, tools, 8)).toEqual(["issue_read", "issue_write", "slack_post_message", "get_me"]);
  });

  it("drops prose and unknown names, and keeps at most `limit`", () => {
    expect(parseSelectorAnswer("The request needs these tools:\nissue_reader\nlist_issues", tools, 8)).toEqual([
      "list_issues",
    ]);
    expect(parseSelectorAnswer("none", tools, 8)).toEqual([]);
    expect(parseSelectorAnswer("get_me\nlist_issues\nissue_read", tools, 2)).toEqual(["get_me", "list_issues"]);
  });
});

describe("mergeSelection", () => {
  it("puts the picks first and fills with the ranking, `limit` in all", () => {
    expect(mergeSelection(["get_me"], ["list_issues", "get_me", "issue_read"], 3)).toEqual([
      "get_me",
      "list_issues",
      "issue_read",
    ]);
  });
});
