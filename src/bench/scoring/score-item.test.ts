import { describe, expect, it } from "vitest";
import type { DatasetItem, StateCheckSpec } from "../dataset/types.ts";
import { scoreItem } from "./score-item.ts";
import type { FailureKind, ItemScore } from "./score-types.ts";
import { CREATE_ISSUE, call, failedCall, item, TOOLS, trace } from "./testing/fixtures.ts";
import type { StateCheckOutcome, TraceView } from "./types.ts";

const issueExists: StateCheckSpec = {
  server: "github",
  expect: "issue_exists",
  args: { owner: "acme", repo: "webapp", title: "Login fails" },
};

const createIssue = item({
  id: "gh-014",
  query: 'Create an issue titled "Login fails" in acme/webapp',
  calls: [CREATE_ISSUE],
  state: [issueExists],
  answer: { contains: ["Login fails"] },
  tags: ["write"],
});

const readIssue = item({
  id: "gh-020",
  query: "What is issue 42 in acme/webapp about?",
  calls: [{ tool: "issue_read", args: { method: "get", owner: "acme", repo: "webapp", issue_number: 42 } }],
  answer: { contains: ["Login fails"] },
});

const postHello = item({
  id: "sl-003",
  query: "Post hello to C01GENERAL",
  servers: ["slack"],
  route: "react",
  calls: [{ tool: "slack_post_message", args: { channel_id: "C01GENERAL", text: ["hello", "Hello!"] } }],
});

const closeAfterMe = item({
  id: "gh-031",
  category: "sequence",
  query: "Get my login, then close issue 1 in acme/webapp",
  calls: [
    { tool: "get_me", args: {} },
    {
      tool: "issue_write",
      args: { method: "update", owner: "acme", repo: "webapp", issue_number: 1, state: "closed" },
    },
  ],
});

const weather = item({
  id: "irr-001",
  category: "irrelevant",
  route: "direct",
  query: "What's the weather in Paris?",
});

const issueWithoutTitle = item({
  id: "mi-002",
  category: "missing_info",
  route: "direct",
  query: "Create an issue in acme/webapp",
  forbidden: ["issue_write"],
  missing: ["title"],
});

const postWithoutText = item({
  id: "sl-m001",
  category: "missing_info",
  route: "direct",
  servers: ["slack"],
  query: "Post a message to C01GENERAL",
  forbidden: ["slack_post_message"],
  missing: ["text"],
});
const postStep = { id: "#E1", tool: "slack_post_message", args: { channel_id: "C01GENERAL" } };

const createPlan = ' issue_write(method="create", owner="acme", repo="webapp", title="Login fails")';
const stepOk = { id: "#E1", tool: "issue_write", round: 0, status: "ok" as const, callSeq: 1 };
const passed = (spec: StateCheckSpec, pass = true): StateCheckOutcome => ({
  spec,
  pass,
  detail: pass ? "found" : "none",
});

interface Case {
  name: string;
  item: DatasetItem;
  trace: TraceView;
  state?: StateCheckOutcome[];
  taskSuccess: boolean;
  failures: FailureKind[];
  recovered?: FailureKind[];
  check?: (score: ItemScore) => void;
}

const cases: Case[] = [
  {
    name: "success: the gold call, state and answer",
    item: createIssue,
    trace: trace({
      plan: { raw: createPlan, steps: [{ id: "#E1", tool: "issue_write", args: CREATE_ISSUE.args }] },
      steps: [stepOk],
      toolCalls: [call(1, "issue_write", CREATE_ISSUE.args)],
      answer: 'Created issue #7 "Login fails".',
    }),
    state: [passed(issueExists)],
    taskSuccess: true,
    failures: [],
    recovered: [],
    check: (score) => {
      expect(score.toolChoice).toMatchObject({ firstCall: true, callSet: true, hallucinated: [] });
      expect(score.params).toMatchObject({ argsCorrect: 4, argsTotal: 4, callsCorrect: 1, callsExpected: 1 });
      expect(score.rescue).toMatchObject({ firstPlanFailed: false, recoveredBy: "none" });
      expect(score.planner?.errors).toEqual([]);
    },
  },
  {
    name: "wrong tool: a look-up instead of the write",
    item: createIssue,
    trace: trace({
      plan: { raw: ' list_issues(owner="acme", repo="webapp")', steps: [] },
      toolCalls: [call(1, "list_issues", { owner: "acme", repo: "webapp" })],
      answer: "There are 2 open issues.",
    }),
    state: [passed(issueExists, false)],
    taskSuccess: false,
    failures: ["wrong_tool", "state_mismatch", "answer_mismatch"],
    check: (score) => {
      expect(score.toolChoice).toMatchObject({ firstCall: false, callSet: false });
      expect(score.params.pairings[0]).toMatchObject({ actualSeq: null, correct: false, args: [] });
      expect(score.planner?.errors).toEqual(["wrong_tool"]);
    },
  },
  {
    name: "hallucinated tool: the plan names a tool that does not exist",
    item: createIssue,
    trace: trace({
      plan: {
        raw: ' create_issue(owner="acme", repo="webapp", title="Login fails")',
        steps: [{ id: "#E1", tool: "create_issue", args: {}, error: 'unknown tool "create_issue"' }],
      },
      steps: [{ id: "#E1", tool: "create_issue", round: 0, status: "skipped", error: 'unknown tool "create_issue"' }],
      answer: "Done.",
    }),
    state: [passed(issueExists, false)],
    taskSuccess: false,
    failures: ["hallucinated_tool", "state_mismatch", "answer_mismatch"],
    check: (score) => {
      expect(score.toolChoice).toMatchObject({ firstCall: false, callSet: false, hallucinated: ["create_issue"] });
      expect(score.rescue).toMatchObject({ firstPlanFailed: true, recovered: false, recoveredBy: "none" });
    },
  },
  {
    name: "missing required: the server rejects a call without repo",
    item: createIssue,
    trace: trace({
      toolCalls: [
        failedCall(
          1,
          "issue_write",
          { method: "create", owner: "acme", title: "Login fails" },
          { kind: "invalid_params", message: "missing required parameter: repo", missing: ["repo"] },
        ),
      ],
      answer: "I could not create the issue Login fails.",
    }),
    state: [passed(issueExists, false)],
    taskSuccess: false,
    failures: ["missing_required", "state_mismatch"],
    check: (score) => {
      expect(score.toolChoice).toMatchObject({ firstCall: true, callSet: true });
      expect(score.params).toMatchObject({ argsCorrect: 3, argsTotal: 4, callsCorrect: 0 });
      expect(score.params.pairings[0]?.args).toContainEqual({ param: "repo", ok: false, error: "missing_required" });
    },
  },
  {
    name: "wrong parameter name: camelCase sent unnormalised by the jsonl baseline",
    item: readIssue,
    trace: trace({
      iterations: [{ action: "issue_read", callSeqs: [1] }],
      toolCalls: [
        failedCall(
          1,
          "issue_read",
          { method: "get", owner: "acme", repo: "webapp", issueNumber: 42 },
          { kind: "tool_error", message: "issue_number is required" },
          { stage: "jsonl" },
        ),
      ],
      answer: "I could not read the issue.",
    }),
    taskSuccess: false,
    failures: ["wrong_param_name", "answer_mismatch"],
    check: (score) => {
      expect(score.params).toMatchObject({ argsCorrect: 3, argsTotal: 5 });
    },
  },
  {
    name: "calls left as text (native): failure tool_call_as_text, tool choice not judged; recovered calls are judged",
    item: readIssue,
    trace: trace({
      toolCallsAsText: [{ calls: [{ name: "issue_read" }], executed: false }],
      answer: '<tool_call>{"name": "issue_read", "arguments": {"method": "get"}}</tool_call>',
    }),
    taskSuccess: false,
    failures: ["tool_call_as_text", "answer_mismatch"],
    check: (score) => {
      expect(score.toolChoice).toMatchObject({ firstCall: null, callSet: null });
      expect(score.toolCallsAsText).toBe(1);
      const recovered = scoreItem({
        item: readIssue,
        trace: trace({ toolCallsAsText: [{ calls: [{ name: "issue_read" }], executed: true }] }),
        stateChecks: [],
        tools: TOOLS,
      });
      expect(recovered.toolChoice).toMatchObject({ firstCall: false, callSet: false });
    },
  },
  {
    name: "wrong value: the title differs (paired, so not also an extra call)",
    item: createIssue,
    trace: trace({
      toolCalls: [call(1, "issue_write", { ...CREATE_ISSUE.args, title: "Login broken" })],
      answer: "Created Login broken.",
    }),
    state: [passed(issueExists, false)],
    taskSuccess: false,
    failures: ["wrong_value", "state_mismatch", "answer_mismatch"],
    check: (score) => {
      expect(score.params).toMatchObject({ argsCorrect: 3, argsTotal: 4, callsCorrect: 0 });
      expect(score.params.pairings[0]?.args).toContainEqual({ param: "title", ok: false, error: "value_error:string" });
    },
  },
  {
    name: "type error: a number sent as a string",
    item: readIssue,
    trace: trace({
      toolCalls: [call(1, "issue_read", { method: "get", owner: "acme", repo: "webapp", issue_number: "42" })],
      answer: "Issue 42: Login fails",
    }),
    taskSuccess: false,
    failures: ["type_error"],
  },
  {
    name: "extra write: the same issue created twice",
    item: createIssue,
    trace: trace({
      toolCalls: [call(1, "issue_write", CREATE_ISSUE.args), call(2, "issue_write", CREATE_ISSUE.args)],
      answer: "Created Login fails.",
    }),
    state: [passed(issueExists)],
    taskSuccess: false,
    failures: ["extra_call"],
    check: (score) => expect(score.params.callsCorrect).toBe(1),
  },
  {
    name: "an extra read-only look-up is allowed",
    item: createIssue,
    trace: trace({
      toolCalls: [call(1, "list_issues", { owner: "acme", repo: "webapp" }), call(2, "issue_write", CREATE_ISSUE.args)],
      answer: "Created Login fails.",
    }),
    state: [passed(issueExists)],
    taskSuccess: true,
    failures: [],
    check: (score) => {
      expect(score.toolChoice.firstCall).toBe(false);
      expect(score.cost.toolCalls).toBe(2);
    },
  },
  {
    name: "a failed call retried correctly does not fail the item",
    item: createIssue,
    trace: trace({
      toolCalls: [
        failedCall(1, "issue_write", CREATE_ISSUE.args, { kind: "transient", message: "-32603" }),
        call(2, "issue_write", CREATE_ISSUE.args),
      ],
      answer: "Created Login fails.",
    }),
    state: [passed(issueExists)],
    taskSuccess: true,
    failures: [],
    check: (score) => expect(score.params.pairings[0]?.actualSeq).toBe(2),
  },
  {
    name: "irrelevant item with a call: missed abstention",
    item: weather,
    trace: trace({
      iterations: [{ action: "calculator", callSeqs: [1] }],
      toolCalls: [call(1, "calculator", { expression: "1+1" })],
      answer: "2",
    }),
    taskSuccess: false,
    failures: ["missed_abstention"],
    check: (score) => {
      expect(score.abstention).toEqual({ rule: "no_call", ok: false, offending: ["calculator"] });
      expect(score.toolChoice.firstCall).toBeNull();
    },
  },
  {
    name: "irrelevant item with no call: abstained",
    item: weather,
    trace: trace({ answer: "I cannot check the weather." }),
    taskSuccess: true,
    failures: [],
    check: (score) => expect(score.abstention).toEqual({ rule: "no_call", ok: true, offending: [] }),
  },
  {
    name: "irrelevant item: a plan step for a made-up tool is still a call",
    item: weather,
    trace: trace({
      plan: {
        raw: ' get_weather(city="Paris")',
        steps: [{ id: "#E1", tool: "get_weather", args: {}, error: "unknown" }],
      },
      answer: "Sunny.",
    }),
    taskSuccess: false,
    failures: ["missed_abstention"],
    recovered: ["hallucinated_tool"],
    check: (score) => expect(score.planner?.errors).toEqual(["hallucinated_tool", "tool_call_on_direct"]),
  },
  {
    name: "missing_info item that invented the absent title",
    item: issueWithoutTitle,
    trace: trace({
      toolCalls: [call(1, "issue_write", { method: "create", owner: "acme", repo: "webapp", title: "New issue" })],
      answer: "Created New issue.",
    }),
    taskSuccess: false,
    failures: ["missed_abstention", "extra_call"],
    check: (score) => expect(score.abstention).toMatchObject({ rule: "no_forbidden_call", offending: ["issue_write"] }),
  },
  {
    name: "missing_info item: a look-up is allowed, then it asks",
    item: issueWithoutTitle,
    trace: trace({
      toolCalls: [call(1, "list_issues", { owner: "acme", repo: "webapp" })],
      answer: "What title should the issue have?",
    }),
    taskSuccess: true,
    failures: [],
  },
  {
    name: "missing_info item: the forbidden call without the absent value, sent anyway, is one mistake",
    item: postWithoutText,
    trace: trace({
      plan: {
        raw: ' slack_post_message(channel_id="C01GENERAL")',
        steps: [{ ...postStep, error: "missing required parameter(s): text", missing: ["text"] }],
      },
      steps: [{ ...postStep, round: 0, status: "skipped", missing: ["text"] }],
      fallback: { used: true, iterations: [{ action: "slack_post_message", callSeqs: [1] }] },
      toolCalls: [
        failedCall(
          1,
          "slack_post_message",
          { channel_id: "C01GENERAL" },
          { kind: "invalid_params", message: "missing required parameter: text", missing: ["text"] },
          { stage: "fallback" },
        ),
      ],
      answer: "What should the message say?",
    }),
    taskSuccess: false,
    failures: ["missed_abstention"],
    recovered: [],
    check: (score) => expect(score.planner?.errors).toEqual(["tool_call_on_direct"]),
  },
  {
    name: "missing_info item: a forbidden call the rescue completed is one mistake",
    item: postWithoutText,
    trace: trace({
      plan: { raw: ' slack_post_message(channel_id="C01GENERAL")', steps: [postStep] },
      steps: [
        { ...postStep, round: 0, status: "skipped", missing: ["text"] },
        { ...postStep, round: 1, status: "ok", callSeq: 1 },
      ],
      rescues: [{ stepId: "#E1", tool: "slack_post_message", param: "text", value: "hi", pattern: "quoted", round: 1 }],
      toolCalls: [call(1, "slack_post_message", { channel_id: "C01GENERAL", text: "hi" }, { round: 1 })],
      answer: "Posted.",
    }),
    taskSuccess: false,
    failures: ["missed_abstention", "extra_call"],
    recovered: [],
  },
  {
    name: "missing_info item: a forbidden call validation stopped, then it asks: recovered from, as that call",
    item: postWithoutText,
    trace: trace({
      plan: {
        raw: ' slack_post_message(channel_id="C01GENERAL")',
        steps: [{ ...postStep, error: "missing required parameter(s): text", missing: ["text"] }],
      },
      steps: [{ ...postStep, round: 0, status: "skipped", missing: ["text"] }],
      answer: "What should the message say?",
    }),
    taskSuccess: true,
    failures: [],
    recovered: ["missed_abstention"],
  },
  {
    name: "rescue with a wrong injection",
    item: createIssue,
    trace: trace({
      plan: {
        raw: ' issue_write(method="create", owner="acme", title="Login fails")',
        steps: [{ id: "#E1", tool: "issue_write", args: { ...CREATE_ISSUE.args, repo: "web" } }],
      },
      steps: [
        { id: "#E1", tool: "issue_write", round: 0, status: "skipped", missing: ["repo"], error: "missing repo" },
        { id: "#E1", tool: "issue_write", round: 1, status: "ok", callSeq: 1 },
      ],
      rescues: [
        { stepId: "#E1", tool: "issue_write", param: "repo", value: "web", pattern: "word-after-in", round: 1 },
      ],
      toolCalls: [call(1, "issue_write", { ...CREATE_ISSUE.args, repo: "web" }, { round: 1 })],
      answer: "Created Login fails.",
    }),
    state: [passed(issueExists, false)],
    taskSuccess: false,
    failures: ["wrong_value", "state_mismatch"],
    recovered: ["missing_required"],
    check: (score) => {
      expect(score.rescue).toEqual({
        firstPlanFailed: true,
        recovered: false,
        recoveredBy: "none",
        injections: 1,
        judged: 1,
        wrong: [{ tool: "issue_write", param: "repo", value: "web", pattern: "word-after-in" }],
      });
      expect(score.planner?.errors).toEqual(["missing_required_param"]);
    },
  },
  {
    name: "rescue with a right injection recovers the item",
    item: createIssue,
    trace: trace({
      plan: {
        raw: ' issue_write(method="create", repo="webapp", title="Login fails")',
        steps: [{ id: "#E1", tool: "issue_write", args: CREATE_ISSUE.args }],
      },
      steps: [
        { id: "#E1", tool: "issue_write", round: 0, status: "skipped", missing: ["owner"] },
        { id: "#E1", tool: "issue_write", round: 1, status: "ok", callSeq: 1 },
      ],
      rescues: [{ stepId: "#E1", tool: "issue_write", param: "owner", value: "ACME", pattern: "owner-repo", round: 1 }],
      toolCalls: [call(1, "issue_write", { ...CREATE_ISSUE.args, owner: "ACME" }, { round: 1 })],
      answer: "Created Login fails.",
    }),
    state: [passed(issueExists)],
    taskSuccess: true,
    failures: [],
    recovered: ["missing_required"],
    check: (score) =>
      expect(score.rescue).toMatchObject({ recovered: true, recoveredBy: "rescue", judged: 1, wrong: [] }),
  },
  {
    name: "fallback recovery after a hallucinated plan step",
    item: createIssue,
    trace: trace({
      plan: {
        raw: ' create_issue(title="Login fails")',
        steps: [{ id: "#E1", tool: "create_issue", args: {}, error: 'unknown tool "create_issue"' }],
      },
      steps: [{ id: "#E1", tool: "create_issue", round: 0, status: "skipped" }],
      fallback: { used: true, iterations: [{ action: "issue_write", callSeqs: [1] }] },
      toolCalls: [call(1, "issue_write", CREATE_ISSUE.args, { stage: "fallback" })],
      answer: "Created Login fails.",
    }),
    state: [passed(issueExists)],
    taskSuccess: true,
    failures: [],
    recovered: ["hallucinated_tool"],
    check: (score) => {
      expect(score.rescue).toMatchObject({ firstPlanFailed: true, recovered: true, recoveredBy: "fallback" });
      expect(score.toolChoice).toMatchObject({ firstCall: false, callSet: true, hallucinated: ["create_issue"] });
    },
  },
  {
    name: "timeout: the run hit its time limit after the call",
    item: createIssue,
    trace: trace({
      toolCalls: [call(1, "issue_write", CREATE_ISSUE.args)],
      error: { stage: "solver", code: "RUN_ABORTED", message: "total time limit of 100 ms exceeded" },
    }),
    state: [passed(issueExists)],
    taskSuccess: false,
    failures: ["timeout", "answer_mismatch"],
  },
  {
    name: "model error: the provider failed in the planner",
    item: createIssue,
    trace: trace({ error: { stage: "planner", code: "MODEL_CALL_FAILED", message: "503" } }),
    state: [passed(issueExists, false)],
    taskSuccess: false,
    failures: ["model_error", "missing_call", "state_mismatch", "answer_mismatch"],
  },
  {
    // a user's own server has no named checks: an item without state checks is not failed for lacking state
    name: "a write item without state checks: scored on the call alone",
    item: postHello,
    trace: trace({ toolCalls: [call(1, "slack_post_message", { channel_id: "C01GENERAL", text: "hello" })] }),
    taskSuccess: true,
    failures: [],
    check: (score) => {
      expect(score.state).toBeNull();
      expect(score.requirements.map((requirement) => requirement.name)).toEqual([
        "no_run_error",
        "calls",
        "no_extra_write",
      ]);
    },
  },
  {
    name: "blocked duplicate write: the guard stopped a repeated post",
    item: postHello,
    trace: trace({
      iterations: [
        { action: "slack_post_message", callSeqs: [1] },
        { action: "slack_post_message", callSeqs: [2] },
      ],
      toolCalls: [
        call(1, "slack_post_message", { channel_id: "C01GENERAL", text: "Hello!" }, { stage: "react" }),
        failedCall(
          2,
          "slack_post_message",
          { channel_id: "C01GENERAL", text: "Hello!" },
          { kind: "tool_error", message: "blocked by the write guard" },
          { stage: "react", blocked: true },
        ),
      ],
      writeGuard: { blocked: [{ tool: "slack_post_message", firstCallSeq: 1 }] },
      answer: "Posted.",
    }),
    taskSuccess: true,
    failures: [],
    recovered: ["blocked_duplicate_write"],
    check: (score) => expect(score.cost).toMatchObject({ toolCalls: 1, writeBlocks: 1 }),
  },
  {
    name: "sequence in the wrong order",
    item: closeAfterMe,
    trace: trace({
      toolCalls: [call(1, "issue_write", closeAfterMe.calls[1]!.args), call(2, "get_me", {})],
    }),
    taskSuccess: false,
    failures: ["wrong_order"],
    check: (score) => expect(score.toolChoice).toMatchObject({ firstCall: false, callSet: false }),
  },
  {
    name: "sequence: the right look-up only came after the write (the first one had a wrong value)",
    item: closeAfterMe,
    trace: trace({
      toolCalls: [
        failedCall(1, "get_me", { user: "x" }, { kind: "invalid_params", message: "unexpected user" }),
        call(2, "issue_write", closeAfterMe.calls[1]!.args),
        call(3, "get_me", {}, { stage: "fallback" }),
      ],
    }),
    taskSuccess: false,
    failures: ["wrong_param_name", "wrong_order"],
  },
  {
    name: "sequence in order, the second call after a reference was resolved",
    item: closeAfterMe,
    trace: trace({
      toolCalls: [call(1, "get_me", {}), call(2, "issue_write", closeAfterMe.calls[1]!.args)],
    }),
    taskSuccess: true,
    failures: [],
    check: (score) => expect(score.params).toMatchObject({ callsCorrect: 2, callsExpected: 2 }),
  },
];

describe("scoreItem", () => {
  it.each(cases)("$name", (c) => {
    const score = scoreItem({ item: c.item, trace: c.trace, stateChecks: c.state ?? [], tools: TOOLS });
    expect(score.taskSuccess).toBe(c.taskSuccess);
    expect(score.failures).toEqual(c.failures);
    if (c.recovered) expect(score.recovered).toEqual(c.recovered);
    expect(score.failures.length === 0).toBe(score.taskSuccess);
    expect(JSON.parse(JSON.stringify(score))).toEqual(score);
    c.check?.(score);
  });
});
