/**
 * Conversations: each configuration gets a run's earlier turns in its own form, and a finished run
 * becomes the next turn's history. The scripted model against in-process MCP servers.
 */

import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { MemoryToolHost } from "../../../mock-servers/kit/memory-host.ts";
import { chatSpec, hubSpec } from "../../../mock-servers/kit/sample-servers.ts";
import { runAgent } from "../../../src/agent/agent.ts";
import { type ConversationTurn, historyText, turnFromResult } from "../../../src/agent/history.ts";
import { type AgentConfigInput, ONSETLAB_AXES } from "../../../src/agent/types.ts";
import { PROTOCOL } from "../../../src/models/protocol.ts";
import { type Script, ScriptedModel } from "../../../src/models/scripted.ts";
import type { ChatMessage } from "../../../src/models/types.ts";

// one host for the file, its servers reset before each test
const hostReady = MemoryToolHost.open([hubSpec, chatSpec]);
let host: MemoryToolHost;
beforeEach(async () => {
  host = await hostReady;
  host.reset();
});
afterAll(async () => (await hostReady).close());

const FIRST: ConversationTurn = {
  user: "List the open issues in acme/webapp",
  calls: [
    {
      tool: "list_issues",
      args: { owner: "acme", repo: "webapp", state: "OPEN" },
      ok: true,
      text: '[{"number":7,"title":"Login fails"}]',
      data: [{ number: 7, title: "Login fails" }],
    },
  ],
  answer: "One open issue: #7 Login fails.",
};

function promptOf(model: ScriptedModel, stage: "planner" | "solver" | "react"): string {
  const request = model.requestsFor(stage)[0];
  return request?.kind === "complete" ? request.prompt : "";
}

function messagesOf(model: ScriptedModel, stage: "native" | "jsonl"): ChatMessage[] {
  const request = model.requestsFor(stage)[0];
  return request?.kind === "chat" ? request.messages : [];
}

async function run(query: string, script: Script, config: AgentConfigInput, history = [FIRST]) {
  const model = new ScriptedModel(script);
  const result = await runAgent(query, { config, model, tools: host, history });
  return { result, model };
}

describe("historyText", () => {
  const turns = (count: number): ConversationTurn[] =>
    Array.from({ length: count }, (_, index) => ({
      user: `question ${index + 1}`,
      calls: [],
      answer: `answer ${index + 1}`,
    }));

  it("answers: the last 6 messages as USER / ASSISTANT lines, no tool results", () => {
    const text = historyText([FIRST, ...turns(3)], "answers", 10_000) as string;
    expect(text.split("\n")).toEqual([
      "USER: question 1",
      "ASSISTANT: answer 1",
      "USER: question 2",
      "ASSISTANT: answer 2",
      "USER: question 3",
      "ASSISTANT: answer 3",
    ]);
    expect(historyText([FIRST], "answers", 10_000)).not.toContain("list_issues");
  });

  it("results: every turn with its calls; over the budget the oldest turns go first, the latest stays", () => {
    const whole = historyText([FIRST, ...turns(2)], "results", 10_000) as string;
    expect(whole).toContain('Turn 1 call: list_issues({"owner":"acme","repo":"webapp","state":"OPEN"}) -> ');
    expect(whole).toContain("Login fails");
    const cut = historyText([FIRST, ...turns(2)], "results", 90) as string;
    expect(cut).not.toContain("Turn 1");
    expect(cut).toContain("Turn 3 user: question 2");
    expect(historyText([FIRST], "results", 1)).toContain("Turn 1 user");
    expect(historyText([], "results", 1000)).toBeUndefined();
  });
});

describe("each configuration receives the history", () => {
  it("onsetlab-plus: the planner sees earlier calls and results before the task; the turn feeds the next", async () => {
    const { result, model } = await run(
      "Show me that issue",
      {
        planner: [' issue_read(method="get", owner="acme", repo="webapp", issue_number=1)'],
        solver: ["Issue #1: Login fails."],
      },
      {},
    );
    const prompt = promptOf(model, "planner");
    expect(prompt).toContain(PROTOCOL.conversationSoFar);
    expect(prompt).toContain("Turn 1 call: list_issues(");
    expect(prompt.indexOf(PROTOCOL.conversationSoFar)).toBeLessThan(prompt.indexOf("Task: Show me that issue"));
    expect(promptOf(model, "solver")).toContain("Turn 1 answer: One open issue");
    const next = turnFromResult(result);
    expect(next).toMatchObject({ user: "Show me that issue", answer: "Issue #1: Login fails." });
    expect(next.calls).toEqual([expect.objectContaining({ tool: "issue_read", ok: true })]);
  });

  it("onsetlab: the playground's context (answers only) in the planner, before the skill rules", async () => {
    const { model } = await run(
      "Show me that issue",
      {
        planner: [' issue_read(method="get", owner="acme", repo="webapp", issue_number=1)'],
        solver: ["Issue #1: Login fails."],
      },
      { ...ONSETLAB_AXES },
    );
    const prompt = promptOf(model, "planner");
    expect(prompt).toContain(
      `${PROTOCOL.conversationSoFar}\nUSER: List the open issues in acme/webapp\nASSISTANT: One open issue`,
    );
    expect(prompt).not.toContain("Turn 1 call");
    expect(prompt.indexOf(PROTOCOL.conversationSoFar)).toBeLessThan(prompt.indexOf("GitHub rules:"));
  });

  it("native: earlier turns as chat messages, tool calls answered by tool messages", async () => {
    const { model } = await run(
      "Who reported it?",
      { native: [{ text: "octo-dev reported it." }] },
      { strategy: "native" },
    );
    const messages = messagesOf(model, "native");
    expect(messages.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
    expect(messages[2]?.toolCalls?.[0]).toMatchObject({ id: "call_t1_1", name: "list_issues" });
    expect(messages[3]).toMatchObject({ toolCallId: "call_t1_1", toolName: "list_issues" });
    expect(messages[3]?.content).toContain("Login fails");
    expect(messages.at(-1)).toEqual({ role: "user", content: "Who reported it?" });
  });

  it("jsonl: earlier turns in the protocol's own lines", async () => {
    const { model } = await run(
      "Who reported it?",
      { jsonl: ['{"type":"final_answer","content":"octo-dev"}'] },
      { strategy: "jsonl" },
    );
    const messages = messagesOf(model, "jsonl");
    expect(messages.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
    ]);
    expect(JSON.parse(messages[2]?.content ?? "")).toMatchObject({ type: "tool_call", name: "list_issues" });
    expect(JSON.parse(messages[3]?.content ?? "")).toMatchObject({ type: "observation", ok: true });
    expect(JSON.parse(messages[4]?.content ?? "")).toEqual({ type: "final_answer", content: FIRST.answer });
  });

  it("react: earlier turns as finished transcripts before the current question", async () => {
    const { model } = await run(
      "Who reported it?",
      { react: ["Thought: I know it.\nFinal Answer: octo-dev"] },
      { strategy: "react" },
    );
    const prompt = promptOf(model, "react");
    expect(prompt).toContain(
      `Question: ${FIRST.user}\nAction: list_issues\nAction Input: {"owner":"acme","repo":"webapp","state":"OPEN"}`,
    );
    expect(prompt).toContain(`Final Answer: ${FIRST.answer}`);
    expect(prompt.indexOf(FIRST.user)).toBeLessThan(prompt.indexOf("Question: Who reported it?"));
  });

  it("without history every prompt is as before: no conversation block", async () => {
    const { model } = await run(
      "List the open issues in acme/webapp",
      { planner: [' list_issues(owner="acme", repo="webapp")'], solver: ["One."] },
      {},
      [],
    );
    for (const request of model.requests) {
      expect(request.kind === "complete" ? request.prompt : "").not.toContain(PROTOCOL.conversationSoFar);
    }
  });
});

describe("history_compact", () => {
  const long = (index: number): ConversationTurn => ({
    user: `Question ${index + 1} about acme/webapp ${"and more words ".repeat(10)}`,
    calls: [{ tool: "list_issues", args: { owner: "acme" }, ok: true, text: "x".repeat(400) }],
    answer: `Answer ${index + 1}: ${"detail ".repeat(30)}`,
  });
  const history = Array.from({ length: 6 }, (_, index) => long(index));

  it("over the budget: off drops the oldest turns whole; on summarises them in one line each, within the budget", () => {
    const dropped = historyText(history, "results", 2000) as string;
    expect(dropped).not.toContain("Turn 1 ");
    const compact = historyText(history, "results", 2000, true) as string;
    expect(compact.length).toBeLessThanOrEqual(2000);
    expect(compact).toContain("Turn 1 (summary): user: Question 1 about acme/webapp");
    expect(compact).toContain("calls: list_issues; answer: Answer 1:");
    // the latest turn stays whole, with its call and result
    expect(compact).toContain("Turn 6 call: list_issues(");
    // within the budget nothing is summarised
    expect(historyText(history.slice(0, 1), "results", 2000, true)).toBe(
      historyText(history.slice(0, 1), "results", 2000),
    );
  });

  it("history_compact on: the planner sees the first turn's summary; off (onsetlab-plus), it does not", async () => {
    const script = () => ({
      planner: [' issue_read(method="get", owner="acme", repo="webapp", issue_number=1)'],
      solver: ["Issue #1."],
    });
    const on = await run("Show me that issue", script(), { historyCompact: true }, history);
    expect(promptOf(on.model, "planner")).toContain("Turn 1 (summary):");
    const off = await run("Show me that issue", script(), {}, history);
    expect(promptOf(off.model, "planner")).not.toContain("Turn 1 ");
  });
});
