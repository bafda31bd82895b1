/** Prompt snapshots: any change to what the model is shown must be a deliberate, reviewed change. */

import { describe, expect, it } from "vitest";
import { buildJsonlSystemPrompt } from "./jsonl.ts";
import { buildPlannerPrompt } from "./planner.ts";
import { buildReactPrompt } from "./react.ts";
import { buildRouterPrompt } from "./router.ts";
import { SKILLS } from "./skills/catalog.ts";
import { skillRulesText } from "./skills/detect.ts";
import { buildSolverPrompt } from "./solver.ts";
import { sampleTool } from "./testing/definitions.ts";
import { describeTool } from "./tool-schema.ts";

const tools = ["list_issues", "issue_write", "get_me", "slack_post_message"].map(sampleTool);
const githubRules = skillRulesText(SKILLS.find((skill) => skill.name === "github")!);

describe("prompts", () => {
  it("tool lines: required params only, example values, enums inline", () => {
    expect(
      ["merge_pull_request", "create-event", "API-post-search", "read_text_file"].map(sampleTool).map(describeTool),
    ).toMatchInlineSnapshot(`
        [
          "merge_pull_request(owner="octocat", repo="hello-world", pullNumber=7) - Merge a pull request in a GitHub repository.",
          "create-event(calendarId="primary", summary="Weekly sync", start="2026-03-20T10:00:00Z", end="2026-03-20T11:00:00Z") - Create a calendar event.",
          "API-post-search() - Search pages and data sources by title.",
          "read_text_file(path="docs/README.md") - Read a text file from the allowed directories.",
        ]
      `);
  });

  it("planner", () => {
    expect(
      buildPlannerPrompt({
        query: 'Create an issue titled "Login fails" in acme/webapp',
        tools,
        skillRules: githubRules,
        context: "Today is 2026-03-16.",
      }),
    ).toMatchInlineSnapshot(`
      "Plan the tool calls that complete the task. Write each step as #E<n> = tool(param="value", ...).

      Tools:
      list_issues(owner="octocat", repo="hello-world") - List issues in a GitHub repository.
      issue_write(method="create"|"update", owner="octocat", repo="hello-world") - Create a new or update an existing issue in a GitHub repository.
      get_me() - Get details of the authenticated GitHub user.
      slack_post_message(channel_id="C0123ABCD", text="Hello team") - Post a new message to a Slack channel.

      Rules:
      - Use only the tools above, with their exact names.
      - Give every required parameter a concrete value taken from the task; never invent ids or names.
      - To use an earlier result, name its step: #E1 for the whole result, #E1.items[0].id for one field.
      - Write only the steps, one per line, no explanations.

      GitHub rules:
      - Split "owner/repo" into owner="owner" and repo="repo"; never pass "owner/repo" as one value.
      - issue_write needs method: method="create" with title (and body) opens an issue; method="update" with issue_number changes one (state="closed" closes it).
      - issue_read needs method="get" (or "get_comments", "get_labels") and issue_number.
      - list_issues takes state="OPEN" or state="CLOSED" in upper case.
      - Pull request tools take pullNumber; issue tools take issue_number. Numbers are plain, without "#".
      - pull_request_read needs method="get" (or "get_diff", "get_files", "get_status", "get_reviews").
      - get_me() returns the signed-in user; use it when the task says me or my without naming an owner.

      Context: Today is 2026-03-16.

      Task: Create an issue titled "Login fails" in acme/webapp
      #E1 ="
    `);
  });

  it("planner without skills or context", () => {
    expect(buildPlannerPrompt({ query: "Who am I?", tools: [sampleTool("get_me")] })).toMatchInlineSnapshot(`
      "Plan the tool calls that complete the task. Write each step as #E<n> = tool(param="value", ...).

      Tools:
      get_me() - Get details of the authenticated GitHub user.

      Rules:
      - Use only the tools above, with their exact names.
      - Give every required parameter a concrete value taken from the task; never invent ids or names.
      - To use an earlier result, name its step: #E1 for the whole result, #E1.items[0].id for one field.
      - Write only the steps, one per line, no explanations.

      Task: Who am I?
      #E1 ="
    `);
  });

  it("react, with a turn and the fallback's error context", () => {
    expect(
      buildReactPrompt({
        query: "Show issue 99 in acme/webapp",
        tools: [sampleTool("list_issues"), sampleTool("get_me")],
        errorContext: '#E1 = issue_read(method="get", owner="acme", repo="webapp", issue_number=99) -> not_found',
        turns: [
          {
            thought: "List the issues instead.",
            action: "list_issues",
            input: '{"owner":"acme","repo":"webapp"}',
            observation: '{"issues":[]}',
          },
        ],
      }),
    ).toMatchInlineSnapshot(`
      "Answer the question. You can use these tools:
      list_issues(owner="octocat", repo="hello-world") - List issues in a GitHub repository.
      get_me() - Get details of the authenticated GitHub user.

      Use this format:
      Thought: what to do next
      Action: one tool name from the list
      Action Input: the arguments as JSON, e.g. {"param": "value"}
      Observation: the tool's result (it is given to you)
      ... (Thought / Action / Action Input / Observation can repeat)
      Thought: I know the answer
      Final Answer: the answer to the question

      An earlier attempt failed:
      #E1 = issue_read(method="get", owner="acme", repo="webapp", issue_number=99) -> not_found
      Fix what failed; do not repeat calls that succeeded.

      Question: Show issue 99 in acme/webapp
      Thought: List the issues instead.
      Action: list_issues
      Action Input: {"owner":"acme","repo":"webapp"}
      Observation: {"issues":[]}
      Thought:"
    `);
  });

  it("solver with tool data, and direct", () => {
    expect(
      buildSolverPrompt({
        query: "List the open issues in acme/webapp",
        evidence: [
          { source: "#E1 list_issues", ok: true, text: '{"issues":[{"number":1,"title":"Login fails"}]}' },
          { source: "#E2 slack_post_message", ok: false, text: "channel_not_found" },
        ],
        dataChars: 800,
      }),
    ).toMatchInlineSnapshot(`
      "Answer the question in one or two short sentences using the tool results. If a result is an ERROR, say what failed.

      Question: List the open issues in acme/webapp

      Tool results:
      [#E1 list_issues] issues (1):
      - title=Login fails; number=1
      [#E2 slack_post_message] ERROR: channel_not_found

      Answer:"
    `);
    expect(
      buildSolverPrompt({ query: "What is the capital of France?", evidence: [], dataChars: 800 }),
    ).toMatchInlineSnapshot(`
      "Answer the question in one or two short sentences.

      Question: What is the capital of France?

      Answer:"
    `);
  });

  it("router", () => {
    expect(buildRouterPrompt("How many things need fixing?", tools)).toMatchInlineSnapshot(`
      "Decide whether a request needs a tool.
      Available tools: list_issues, issue_write, get_me, slack_post_message
      Request: How many things need fixing?
      Reply ACTION if answering needs one of the tools, or DIRECT if you can answer without them. Reply with one word.
      Answer:"
    `);
  });

  it("jsonl system prompt", () => {
    expect(buildJsonlSystemPrompt([sampleTool("get_me"), sampleTool("slack_post_message")])).toMatchInlineSnapshot(`
      "You can call tools to answer the user. Reply with JSON objects, one per line, and nothing else.
      To call a tool: {"type":"tool_call","name":"<tool name>","arguments":{...}}
      To answer: {"type":"final_answer","content":"<answer>"}
      After your tool calls you get one {"type":"observation",...} line per call; then continue.

      Tools (arguments as JSON Schema):
      {"name":"get_me","description":"Get details of the authenticated GitHub user.","parameters":{"type":"object","properties":{},"required":[]}}
      {"name":"slack_post_message","description":"Post a new message to a Slack channel.","parameters":{"type":"object","properties":{"channel_id":{"type":"string"},"text":{"type":"string"}},"required":["channel_id","text"]}}"
    `);
  });
});
