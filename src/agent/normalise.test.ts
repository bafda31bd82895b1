import { describe, expect, it } from "vitest";
import { normaliseKeys } from "./normalise.ts";
import { sampleTool } from "./testing/definitions.ts";

describe("normaliseKeys", () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>, string[]]>([
    ["issue_read", { issueNumber: 5 }, { issue_number: 5 }, ["issueNumber→issue_number"]],
    ["merge_pull_request", { pull_number: 7 }, { pullNumber: 7 }, ["pull_number→pullNumber"]],
    ["merge_pull_request", { PullNumber: 7 }, { pullNumber: 7 }, ["PullNumber→pullNumber"]],
    ["slack_post_message", { "channel-id": "C1" }, { channel_id: "C1" }, ["channel-id→channel_id"]],
    ["slack_post_message", { channel_id: "C1", text: "x" }, { channel_id: "C1", text: "x" }, []],
    // unknown keys pass through; the server's validation speaks
    ["slack_post_message", { channel: "C1" }, { channel: "C1" }, []],
    // the schema's own spelling wins over a variant of it
    ["issue_read", { issue_number: 1, issueNumber: 2 }, { issue_number: 1, issueNumber: 2 }, []],
  ])("%s %j", (tool, args, expected, renamed) => {
    expect(normaliseKeys(sampleTool(tool), args)).toEqual({ args: expected, renamed });
  });
});
