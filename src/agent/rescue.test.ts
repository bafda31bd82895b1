import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../tool-protocol/types.ts";
import type { StepOutcome } from "./executor.ts";
import { parsePlan } from "./plan-parser.ts";
import { rescuePlan } from "./rescue.ts";
import { extractValue } from "./rescue-patterns.ts";
import { SAMPLE_TOOLS } from "./testing/definitions.ts";

const str: JsonSchema = { type: "string" };
const num: JsonSchema = { type: "number" };
const UUID = "59833787-2cf9-4fdf-8782-e53db20768a5";

describe("rescue patterns", () => {
  it.each<[string, string, JsonSchema, string, Record<string, unknown>, unknown, string]>([
    ["split owner/repo from args", "repo", str, "whatever", { owner: "acme/webapp" }, "webapp", "split-owner-repo"],
    ["owner from a/b", "owner", str, "List issues in acme/webapp please", {}, "acme", "owner-repo"],
    ["repo from a/b", "repo", str, "List issues in acme/webapp.", {}, "webapp", "owner-repo"],
    ["owner from a github URL", "owner", str, "see https://github.com/octo/tools/issues", {}, "octo", "owner-repo"],
    [
      "other URLs are not owner/repo",
      "owner",
      str,
      "see https://example.com/docs/page and octo/tools",
      {},
      "octo",
      "owner-repo",
    ],
    [
      "method create",
      "method",
      { enum: ["create", "update"] },
      'Create an issue titled "x"',
      {},
      "create",
      "method-intent",
    ],
    [
      "method update from close",
      "method",
      { enum: ["create", "update"] },
      "Close issue 5 in a/b",
      {},
      "update",
      "method-intent",
    ],
    [
      "method get_comments",
      "method",
      { enum: ["get", "get_comments"] },
      "Show the comments on issue 5",
      {},
      "get_comments",
      "method-intent",
    ],
    ["method get", "method", { enum: ["get", "get_comments"] }, "Show issue 5", {}, "get", "method-intent"],
    [
      "state in the enum's case",
      "state",
      { enum: ["OPEN", "CLOSED"] },
      "list closed issues",
      {},
      "CLOSED",
      "state-word",
    ],
    ["channel id", "channel_id", str, "post hi to C0123ABCD", {}, "C0123ABCD", "channel-id"],
    ["channel name", "channel", str, "post hi in #general", {}, "general", "channel-id"],
    ["user id", "user_id", str, "DM U0123ABCD about it", {}, "U0123ABCD", "user-id"],
    ["uuid", "page_id", str, `append to page ${UUID}`, {}, UUID, "uuid"],
    [
      "uuid without dashes",
      "block_id",
      str,
      "block 598337872cf94fdf8782e53db20768a5",
      {},
      "598337872cf94fdf8782e53db20768a5",
      "uuid",
    ],
    ["not a uuid (33 hex digits)", "block_id", str, "block 59833787d2cf94fdf8782e53db20768a5", {}, undefined, ""],
    ["email", "attendee_email", str, "invite ana@example.com tomorrow", {}, "ana@example.com", "email"],
    [
      "email into an array",
      "attendees",
      { type: "array", items: { type: "string", format: "email" } },
      "invite ana@example.com",
      {},
      ["ana@example.com"],
      "email",
    ],
    ["date", "start_date", str, "events from 2026-03-20 on", {}, "2026-03-20", "iso-date"],
    ["date-time", "start", str, "meet at 2026-03-20T10:00:00Z", {}, "2026-03-20T10:00:00Z", "iso-date"],
    ["url", "url", str, "read https://example.com/a.", {}, "https://example.com/a", "url"],
    [
      "urls as an array",
      "urls",
      { type: "array", items: str },
      "extract https://example.com/a",
      {},
      ["https://example.com/a"],
      "url",
    ],
    ["number after #", "issue_number", num, "close issue #12 in a/b", {}, 12, "number"],
    ["number after PR", "pullNumber", num, "merge PR 7 in acme/webapp2", {}, 7, "number"],
    ["a lone number", "limit", num, "show 5 channels", {}, 5, "number"],
    ["no number", "limit", num, "show channels", {}, undefined, ""],
    [
      "quoted title",
      "title",
      str,
      'Open an issue titled "Login fails" with body "500 on submit"',
      {},
      "Login fails",
      "quoted",
    ],
    [
      "quoted body by its cue",
      "body",
      str,
      'Open an issue titled "Login fails" with body "500 on submit"',
      {},
      "500 on submit",
      "quoted",
    ],
    ["single-quoted text", "text", str, "post 'Deploy done' to C01GENERAL", {}, "Deploy done", "quoted"],
    ["curly quotes", "title", str, "create “Crash on save” in a/b", {}, "Crash on save", "quoted"],
    ["an unused quote when no cue fits", "body", str, 'titled "A" and "B"', { title: "A" }, "B", "quoted"],
    ["search phrase", "query", str, "search the web for MCP server news", {}, "MCP server news", "query-phrase"],
    ["file path", "path", str, "read docs/notes.txt please", {}, "docs/notes.txt", "file-path"],
    ["absolute path", "path", str, "list /var/log", {}, "/var/log", "file-path"],
    ["branch", "branch", str, "create a branch named feature-x from main", {}, "feature-x", "branch-name"],
    ["an enum the intent does not fit", "method", { enum: ["get"] }, "create something", {}, undefined, ""],
  ])("%s", (_, param, schema, query, args, value, pattern) => {
    const found = extractValue({ query, param, schema, args });
    if (value === undefined) expect(found).toBeUndefined();
    else expect(found).toMatchObject({ value, pattern });
  });

  it("splitting owner/repo also corrects the merged owner", () => {
    expect(extractValue({ query: "", param: "repo", schema: str, args: { owner: "acme/webapp" } })).toEqual({
      value: "webapp",
      pattern: "split-owner-repo",
      also: { owner: "acme" },
    });
  });
});

function failedOutcomes(steps: ReturnType<typeof parsePlan>["steps"]): StepOutcome[] {
  return steps.map((step) => ({
    id: step.id,
    tool: step.tool,
    round: 0,
    status: step.error ? "skipped" : "ok",
    text: step.error ?? "ok",
    ...(step.missing ? { missing: step.missing } : {}),
  }));
}

describe("rescuePlan", () => {
  it("fills every missing value, clears the step's error and records each injection", () => {
    const { steps } = parsePlan('#E1 = issue_write(title="Login fails")', SAMPLE_TOOLS);
    const rescue = rescuePlan({
      query: 'Create an issue titled "Login fails" in acme/webapp',
      steps,
      outcomes: failedOutcomes(steps),
      tools: SAMPLE_TOOLS,
      round: 1,
    });
    expect(rescue.patched).toEqual(["#E1"]);
    expect(rescue.steps[0]).toEqual({
      id: "#E1",
      tool: "issue_write",
      args: { title: "Login fails", method: "create", owner: "acme", repo: "webapp" },
      dependsOn: [],
      raw: 'issue_write(title="Login fails")',
    });
    expect(rescue.rescues.map((record) => [record.param, record.value, record.pattern])).toEqual([
      ["method", "create", "method-intent"],
      ["owner", "acme", "owner-repo"],
      ["repo", "webapp", "owner-repo"],
    ]);
  });

  it("leaves a step alone when one missing value cannot be found", () => {
    const { steps } = parsePlan('#E1 = slack_post_message(channel_id="C0123ABCD")', SAMPLE_TOOLS);
    const rescue = rescuePlan({
      query: "post to C0123ABCD",
      steps,
      outcomes: failedOutcomes(steps),
      tools: SAMPLE_TOOLS,
      round: 1,
    });
    expect(rescue).toEqual({ steps, rescues: [], patched: [] });
  });

  it("rescues a parameter the server reported missing", () => {
    const { steps } = parsePlan('#E1 = list_issues(owner="acme", repo="webapp")', SAMPLE_TOOLS);
    const outcomes: StepOutcome[] = [
      {
        id: "#E1",
        tool: "list_issues",
        round: 0,
        status: "error",
        text: "missing required parameter: state",
        missing: ["state"],
      },
    ];
    const rescue = rescuePlan({
      query: "closed issues of acme/webapp",
      steps,
      outcomes,
      tools: SAMPLE_TOOLS,
      round: 1,
    });
    expect(rescue.steps[0]?.args).toEqual({ owner: "acme", repo: "webapp", state: "CLOSED" });
  });

  it("ignores steps that succeeded or failed for other reasons", () => {
    const { steps } = parsePlan('#E1 = get_me()\n#E2 = list_repos(owner="x")', SAMPLE_TOOLS);
    const rescue = rescuePlan({ query: "a/b", steps, outcomes: failedOutcomes(steps), tools: SAMPLE_TOOLS, round: 1 });
    expect(rescue.patched).toEqual([]);
  });
});
