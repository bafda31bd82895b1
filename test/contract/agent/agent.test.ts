/**
 * End to end: the scripted model against in-process MCP servers (a GitHub-like and a Slack-like one),
 * one test per path through the pipeline and per baseline.
 */

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemoryToolHost } from "../../../mock-servers/kit/memory-host.ts";
import { type ChatState, chatSpec, type HubState, hubSpec } from "../../../mock-servers/kit/sample-servers.ts";
import { runAgent } from "../../../src/agent/agent.ts";
import type { AgentEvent } from "../../../src/agent/events.ts";
import { MAX_OUTPUT_CHARS } from "../../../src/agent/recorder.ts";
import type { AgentConfigInput, AgentResult } from "../../../src/agent/types.ts";
import { type Script, ScriptedModel } from "../../../src/models/scripted.ts";
import type { ModelProvider } from "../../../src/models/types.ts";

let host: MemoryToolHost;

beforeAll(async () => {
  host = await MemoryToolHost.open([hubSpec, chatSpec]);
});
afterAll(async () => {
  await host.close();
});
beforeEach(() => {
  host.reset();
  host.received.length = 0;
});

async function run(query: string, script: Script, config: AgentConfigInput = {}) {
  const model = new ScriptedModel(script);
  const result = await runAgent(query, { config, model, tools: host });
  return { result, model };
}

describe("ReWOO path", () => {
  it("runs a single planned call and cleans the solver's answer", async () => {
    const { result, model } = await run("List the open issues in acme/webapp", {
      planner: [' list_issues(owner="acme", repo="webapp", state="OPEN")'],
      solver: ["Based on the results, there is one open issue: Login fails (see #E1)."],
    });
    model.assertFinished();
    expect(result.error).toBeUndefined();
    expect(result.route).toMatchObject({ route: "REWOO", rule: "default", llmAsked: false });
    expect(result.skill).toMatchObject({ name: "github" });
    expect(result.tools.filtered[0]).toBe("list_issues");
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0]).toMatchObject({
      stage: "executor",
      stepId: "#E1",
      tool: "list_issues",
      args: { owner: "acme", repo: "webapp", state: "OPEN" },
      ok: true,
    });
    expect(result.answer).toBe("There is one open issue: Login fails.");
    expect(result.answeredBy).toBe("solver");
    expect(result.modelCalls.map((call) => call.stage)).toEqual(["planner", "solver"]);
    expect(result.modelCalls[1]?.prompt).toContain("title=Login fails");
    expect(result.timings.totalMs).toBeGreaterThanOrEqual(result.timings.toolsMs);
  });

  it("passes a field of #E1 into the next step and normalises/coerces its arguments", async () => {
    const { result } = await run("Get my GitHub user, then close issue 1 in acme/webapp and name it after me", {
      planner: [
        ' get_me()\n#E2 = issue_write(method="update", owner="acme", repo="webapp", issueNumber="1", title=#E1.login, state="closed")',
      ],
      solver: ["Issue 1 is now closed and titled octo-dev."],
    });
    expect(result.route?.rule).toBe("sequence");
    expect(result.plan?.waves).toEqual([["#E1"], ["#E2"]]);
    const write = result.toolCalls[1];
    expect(write).toMatchObject({
      tool: "issue_write",
      args: { method: "update", issue_number: 1, title: "octo-dev", state: "closed" },
      renamed: ["issueNumber→issue_number"],
      coerced: ["issue_number: string→number"],
      ok: true,
    });
    expect(write?.argsPlanned).toMatchObject({ issueNumber: "1", title: "octo-dev" });
    expect(host.state<HubState>("github").repos["acme/webapp"]?.[0]).toMatchObject({
      title: "octo-dev",
      state: "closed",
    });
  });

  it("runs independent reads in one wave, concurrently", async () => {
    const { result } = await run("List the open and the closed issues of acme/webapp", {
      planner: [
        ' list_issues(owner="acme", repo="webapp", state="OPEN")\n#E2 = list_issues(owner="acme", repo="webapp", state="CLOSED")',
      ],
      solver: ["Two lists."],
    });
    expect(result.plan?.waves).toEqual([["#E1", "#E2"]]);
    const [first, second] = result.toolCalls;
    // numbered in the order they started; the second started before the first one finished
    expect([first?.stepId, second?.stepId]).toEqual(["#E1", "#E2"]);
    expect(second!.startMs).toBeLessThan(first!.startMs + first!.durationMs);
  });

  it("keeps writes in plan order, even without references between them", async () => {
    const { result } = await run('Post "Deploy done" to C01GENERAL and C02RANDOM0', {
      planner: [
        ' slack_post_message(channel_id="C01GENERAL", text="Deploy done")\n#E2 = slack_post_message(channel_id="C02RANDOM0", text="Deploy done")',
      ],
      solver: ["Posted to both channels."],
    });
    expect(result.plan?.waves).toEqual([["#E1"], ["#E2"]]);
    const [first, second] = result.toolCalls;
    expect(second!.startMs).toBeGreaterThanOrEqual(first!.startMs + first!.durationMs);
    expect(host.state<ChatState>("slack").messages.map((message) => message.channel)).toEqual([
      "C01GENERAL",
      "C02RANDOM0",
    ]);
  });

  it("rescues a missing method from the query and re-runs the plan without a model call", async () => {
    const { result, model } = await run('Create an issue titled "Crash on save" in acme/webapp', {
      planner: [' issue_write(owner="acme", repo="webapp", title="Crash on save")'],
      solver: ["Created issue 3, Crash on save."],
    });
    model.assertFinished();
    expect(result.rescues).toEqual([
      { stepId: "#E1", tool: "issue_write", param: "method", value: "create", pattern: "method-intent", round: 1 },
    ]);
    expect(result.steps.map((step) => [step.round, step.status])).toEqual([
      [0, "skipped"],
      [1, "ok"],
    ]);
    expect(result.steps[0]?.missing).toEqual(["method"]);
    expect(result.fallback.used).toBe(false);
    expect(result.modelCalls).toHaveLength(2);
    expect(host.received).toEqual([
      {
        name: "issue_write",
        args: { owner: "acme", repo: "webapp", title: "Crash on save", method: "create" },
      },
    ]);
  });

  it("splits a merged owner/repo when repo is missing", async () => {
    const { result } = await run("Show the issues of acme/webapp", {
      planner: [' list_issues(owner="acme/webapp")'],
      solver: ["There are two issues."],
    });
    expect(result.rescues.map((rescue) => [rescue.param, rescue.value, rescue.pattern])).toEqual([
      ["repo", "webapp", "split-owner-repo"],
      ["owner", "acme", "split-owner-repo"],
    ]);
    expect(result.toolCalls.at(-1)).toMatchObject({ args: { owner: "acme", repo: "webapp" }, ok: true });
  });

  it("reuses successful steps when the rescued plan runs again", async () => {
    const { result } = await run('Get my user, then post "hello" to C01GENERAL', {
      planner: [' get_me()\n#E2 = slack_post_message(text="hello")'],
      solver: ["Posted."],
    });
    expect(result.rescues.map((rescue) => rescue.pattern)).toEqual(["channel-id"]);
    expect(result.steps.find((step) => step.id === "#E1" && step.round === 1)?.reused).toBe(true);
    expect(host.received.map((call) => call.name)).toEqual(["get_me", "slack_post_message"]);
  });

  it("falls back to ReAct when the plan still fails, with the error in the prompt", async () => {
    const { result, model } = await run("Show issue 99 in acme/webapp", {
      planner: [' issue_read(method="get", owner="acme", repo="webapp", issue_number=99)'],
      fallback: [
        ' Issue 99 does not exist; list the issues instead.\nAction: list_issues\nAction Input: {"owner": "acme", "repo": "webapp"}',
        " I know the answer.\nFinal Answer: Issue 99 does not exist. The repository has issues 1 and 2.",
      ],
    });
    model.assertFinished();
    expect(result.fallback.used).toBe(true);
    expect(result.fallback.reason).toContain("issue #99 not found");
    const fallbackPrompt = model.requestsFor("fallback")[0];
    expect(fallbackPrompt?.kind === "complete" && fallbackPrompt.prompt).toContain("An earlier attempt failed:");
    expect(fallbackPrompt?.kind === "complete" && fallbackPrompt.prompt).toContain("issue #99 not found");
    expect(result.fallback.iterations.map((iteration) => iteration.action ?? "final")).toEqual([
      "list_issues",
      "final",
    ]);
    expect(result.answer).toBe("Issue 99 does not exist. The repository has issues 1 and 2.");
    expect(result.answeredBy).toBe("fallback");
  });

  it("answers from partial results when fallback is off", async () => {
    const { result } = await run(
      "Show issue 99 in acme/webapp",
      {
        planner: [' issue_read(method="get", owner="acme", repo="webapp", issue_number=99)'],
        solver: ["Issue 99 was not found"],
      },
      { fallback: false },
    );
    expect(result.fallback.used).toBe(false);
    expect(result.modelCalls[1]?.prompt).toContain("[#E1 issue_read] ERROR: not_found: issue #99 not found");
    expect(result.answer).toBe("Issue 99 was not found");
  });
});

describe("ReAct path and the write guard", () => {
  const postTwice: Script = {
    react: [
      ' I will post.\nAction: slack_post_message\nAction Input: {"channel_id": "C01GENERAL", "text": "Standup in 5"}',
      ' Let me make sure it arrived.\nAction: slack_post_message\nAction Input: {"channel_id": "C01GENERAL", "text": "Standup in 5"}',
      " Done.\nFinal Answer: Posted the reminder to #general.",
    ],
  };

  it("blocks a repeat of a successful write (same tool, same arguments) in one query", async () => {
    const { result, model } = await run("Post 'Standup in 5' to C01GENERAL", postTwice, { strategy: "react" });
    model.assertFinished();
    expect(result.path).toBe("react");
    expect(result.writeGuard.blocked).toEqual([
      {
        tool: "slack_post_message",
        args: { channel_id: "C01GENERAL", text: "Standup in 5" },
        stage: "react",
        firstCallSeq: 1,
      },
    ]);
    expect(result.toolCalls.map((call) => call.blocked ?? false)).toEqual([false, true]);
    expect(result.iterations[1]?.observation).toContain("blocked by the write guard");
    expect(host.state<ChatState>("slack").messages).toHaveLength(1);
    expect(result.answer).toBe("Posted the reminder to #general.");
  });

  it("lets the same write tool through with other arguments (two channels are two posts)", async () => {
    const { result } = await run(
      "Post 'Standup in 5' to C01GENERAL and C02RANDOM0",
      {
        react: [
          ' First channel.\nAction: slack_post_message\nAction Input: {"channel_id": "C01GENERAL", "text": "Standup in 5"}',
          ' Second channel.\nAction: slack_post_message\nAction Input: {"channel_id": "C02RANDOM0", "text": "Standup in 5"}',
          " Done.\nFinal Answer: Posted to both.",
        ],
      },
      { strategy: "react" },
    );
    expect(result.writeGuard.blocked).toEqual([]);
    expect(host.state<ChatState>("slack").messages).toHaveLength(2);
  });

  it("lets the duplicate through when the write guard is off", async () => {
    const { result } = await run("Post 'Standup in 5' to C01GENERAL", postTwice, {
      strategy: "react",
      writeGuard: false,
    });
    expect(result.writeGuard).toEqual({ enabled: false, blocked: [] });
    expect(host.state<ChatState>("slack").messages).toHaveLength(2);
  });

  it("routes exploratory queries to ReAct and goes to the solver when no Final Answer comes", async () => {
    const { result } = await run(
      "Find my GitHub user details",
      {
        react: [" Check the user.\nAction: get_me\nAction Input: {}"],
        solver: ["You are octo-dev."],
      },
      { limits: { reactMaxIterations: 1 } },
    );
    expect(result.route).toMatchObject({ route: "REACT", rule: "exploratory" });
    expect(result.iterations).toHaveLength(1);
    expect(result.answeredBy).toBe("solver");
    expect(result.answer).toBe("You are octo-dev.");
  });
});

describe("DIRECT answers and routing", () => {
  it("answers a meta question directly without asking the routing model", async () => {
    const { result, model } = await run("What can you do?", { solver: ["I can work with GitHub issues and Slack."] });
    model.assertFinished();
    expect(result.route).toMatchObject({ route: "DIRECT", rule: "meta", llmAsked: false });
    expect(result.path).toBe("direct");
    expect(result.toolCalls).toEqual([]);
    expect(result.answeredBy).toBe("direct");
  });

  it("asks the routing model when no tool is relevant, and keeps DIRECT when it says so", async () => {
    const { result, model } = await run("What is the capital of France?", {
      router: ["DIRECT"],
      solver: ["Paris."],
    });
    model.assertFinished();
    expect(result.route).toMatchObject({ route: "DIRECT", rule: "llm", llmAsked: true, llmAnswer: "DIRECT" });
    expect(result.answer).toBe("Paris.");
  });

  it("follows the routing model's ACTION into ReWOO", async () => {
    const { result } = await run("How many things need fixing at acme/webapp?", {
      router: [" ACTION"],
      planner: [' list_issues(owner="acme", repo="webapp", state="OPEN")'],
      solver: ["One."],
    });
    expect(result.route).toMatchObject({ route: "REWOO", llmAnswer: "ACTION" });
    expect(result.toolCalls[0]?.tool).toBe("list_issues");
  });

  it("skips the routing model when routing_llm is off", async () => {
    const { result } = await run("What is the capital of France?", { solver: ["Paris."] }, { routingLlm: false });
    expect(result.route).toMatchObject({ route: "DIRECT", rule: "no-relevance", llmAsked: false });
  });
});

describe("baselines", () => {
  it("native: sends every tool, passes arguments raw, feeds results back", async () => {
    const { result, model } = await run(
      "List the open issues in acme/webapp",
      {
        native: [
          {
            toolCalls: [
              { id: "call_1", name: "list_issues", arguments: { owner: "acme", repo: "webapp", state: "open" } },
            ],
          },
          {
            toolCalls: [
              { id: "call_2", name: "list_issues", arguments: { owner: "acme", repo: "webapp", state: "OPEN" } },
            ],
          },
          { text: "There is one open issue: Login fails." },
        ],
      },
      { strategy: "native" },
    );
    model.assertFinished();
    expect(result.path).toBe("native");
    expect(result.modelCalls[0]?.tools).toHaveLength(6);
    // No coercion in the baseline: the lower-case enum reaches the server and fails there.
    expect(result.toolCalls.map((call) => [call.args.state, call.ok])).toEqual([
      ["open", false],
      ["OPEN", true],
    ]);
    const second = model.requestsFor("native")[1];
    expect(second?.kind === "chat" && second.messages.at(-1)).toMatchObject({ role: "tool", toolCallId: "call_1" });
    expect(result.answer).toBe("There is one open issue: Login fails.");
  });

  it("native: stops at the call limit and asks for an answer without tools", async () => {
    const call = { name: "get_me", arguments: {} };
    const { result, model } = await run(
      "Who am I?",
      { native: [{ toolCalls: [call] }, { toolCalls: [call] }, { text: "octo-dev" }] },
      { strategy: "native", limits: { nativeMaxCalls: 1 } },
    );
    model.assertFinished();
    expect(result.toolCalls).toHaveLength(1);
    expect(result.modelCalls.at(-1)?.tools).toBeUndefined();
    expect(result.answer).toBe("octo-dev");
  });

  it("jsonl: repairs sloppy JSON, runs the call, returns the final answer", async () => {
    const { result, model } = await run(
      "Who am I on GitHub?",
      {
        jsonl: [
          "Sure!\n{type: 'tool_call', name: 'get_me', arguments: {}}",
          '{"type":"final_answer","content":"You are octo-dev."}',
        ],
      },
      { strategy: "jsonl" },
    );
    model.assertFinished();
    expect(result.toolCalls.map((call) => call.tool)).toEqual(["get_me"]);
    const second = model.requestsFor("jsonl")[1];
    expect(second?.kind === "chat" && second.messages.at(-1)?.content).toContain('"type":"observation"');
    expect(result.answer).toBe("You are octo-dev.");
  });

  it("jsonl: gives up after the iteration limit with an error, not an exception", async () => {
    const { result } = await run(
      "Who am I?",
      { jsonl: ["I think you are a user.", "Still prose."] },
      { strategy: "jsonl", limits: { jsonlMaxIterations: 2 } },
    );
    expect(result.iterations.map((iteration) => iteration.parseError)).toEqual(["no JSON object", "no JSON object"]);
    expect(result.error).toMatchObject({ stage: "jsonl", code: "MAX_ITERATIONS" });
  });

  it("react over all tools when the filter is off", async () => {
    const { result } = await run(
      "Who am I?",
      { react: [" I know.\nFinal Answer: Unknown without a tool."] },
      { strategy: "react", filter: "all", skills: false },
    );
    expect(result.tools.filtered).toHaveLength(6);
    expect(result.skill).toBeNull();
  });
});

describe("failures end the run with a recorded error, never an exception", () => {
  it("records a model error at the planner", async () => {
    const { result } = await run("List the issues in acme/webapp", {
      planner: [{ error: new Error("connection refused") }],
    });
    expect(result.error).toMatchObject({ stage: "planner", code: "MODEL_CALL_FAILED" });
    expect(result.modelCalls[0]?.error).toBe("connection refused");
    expect(result.answer).toBe("");
  });

  it("reports an exhausted script loudly in the result", async () => {
    const { result } = await run("List the issues in acme/webapp", {
      planner: [' list_issues(owner="acme", repo="webapp")'],
    });
    expect(result.error?.message).toContain('no reply left for stage "solver"');
    expect(result.toolCalls).toHaveLength(1);
  });

  it("stops at the total time limit", async () => {
    const hanging: ModelProvider = {
      id: "hanging",
      complete: (request) =>
        new Promise((_, reject) => request.signal?.addEventListener("abort", () => reject(new Error("aborted")))),
      chat: () => Promise.reject(new Error("unused")),
    };
    const result = await runAgent("List the issues in acme/webapp", {
      model: hanging,
      tools: host,
      config: { limits: { totalTimeoutMs: 30 } },
    });
    expect(result.error).toMatchObject({ stage: "planner", code: "RUN_ABORTED" });
    expect(result.error?.message).toContain("total time limit of 30 ms exceeded");
    expect(result.modelCalls[0]?.error).toBe("aborted");
  });

  it("stops when the caller's signal is aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runAgent("List the issues in acme/webapp", {
      model: new ScriptedModel({}),
      tools: host,
      signal: controller.signal,
    });
    expect(result.error).toMatchObject({ stage: "planner", code: "RUN_ABORTED" });
    expect(result.error?.message).toContain("aborted by the caller");
  });
});

async function runHostile(script: Script, config: AgentConfigInput) {
  const model = new ScriptedModel(script);
  const result = await runAgent("Who am I on GitHub?", { config, model, tools: host });
  // a record must be writable whatever the model wrote
  expect(() => JSON.stringify(result)).not.toThrow();
  return result;
}

const DEEP_JSONL = '{"type":"tool_call","name":"get_me","arguments":'.repeat(5000);

// Issue 17's hostile outputs: cut at MAX_OUTPUT_CHARS (and recorded as cut), too-deep values refused.
describe("hostile model outputs", () => {
  it("jsonl nested 5,000 deep: a parse error fed back to the model, no tool call, no RangeError", async () => {
    const result = await runHostile(
      { jsonl: [DEEP_JSONL, '{"type":"final_answer","content":"done"}'] },
      { strategy: "jsonl", limits: { jsonlMaxIterations: 2 } },
    );
    expect(result.toolCalls).toEqual([]);
    expect(result.answer).toBe("done");
    expect(result.modelCalls[0]?.outputCut).toEqual({ at: MAX_OUTPUT_CHARS, of: DEEP_JSONL.length });
    expect(result.modelCalls[0]?.output).toHaveLength(MAX_OUTPUT_CHARS);
  });

  it("a 128 KB plan of repeated steps is cut, read once per step and de-duplicated", async () => {
    const plan = "#E1 = get_me()\n".repeat(Math.ceil((128 * 1024) / 15));
    const result = await runHostile({ planner: [plan], solver: ["You are octocat."] }, { strategy: "rewoo" });
    expect(result.modelCalls[0]?.outputCut).toEqual({ at: MAX_OUTPUT_CHARS, of: plan.length });
    expect(result.plan?.steps.map((step) => step.tool)).toEqual(["get_me"]);
    expect(result.toolCalls).toHaveLength(1);
  });

  it("128 KB of ReAct stars is cut and read as no action", async () => {
    const stars = "**".repeat(64 * 1024);
    const result = await runHostile(
      { react: [stars, "Final Answer: nothing to do"] },
      { strategy: "react", limits: { reactMaxIterations: 2 } },
    );
    expect(result.modelCalls[0]?.outputCut).toEqual({ at: MAX_OUTPUT_CHARS, of: stars.length });
    expect(result.toolCalls).toEqual([]);
  });

  it("native arguments nested too deep are refused with a reason, and the call made with none", async () => {
    let deep: Record<string, unknown> = {};
    for (let level = 0; level < 5000; level++) deep = { a: deep };
    const result = await runHostile(
      { native: [{ text: "", toolCalls: [{ name: "get_me", arguments: deep }] }, { text: "done" }] },
      { strategy: "native" },
    );
    expect(result.modelCalls[0]?.toolCalls?.[0]).toMatchObject({
      name: "get_me",
      arguments: {},
      argumentsError: "arguments nested deeper than 32 levels",
    });
    expect(result.toolCalls[0]).toMatchObject({ tool: "get_me", args: {} });
  });

  it("an output within the cap is recorded whole, with no cut", async () => {
    const result = await runHostile({ planner: ["#E1 = get_me()"], solver: ["octocat"] }, { strategy: "rewoo" });
    expect(result.modelCalls[0]?.output).toBe("#E1 = get_me()");
    expect(result.modelCalls[0]).not.toHaveProperty("outputCut");
  });
});

async function runWatched(query: string, script: () => Script): Promise<{ events: AgentEvent[]; result: AgentResult }> {
  const events: AgentEvent[] = [];
  const result = await runAgent(query, {
    model: new ScriptedModel(script()),
    tools: host,
    onEvent: (e) => events.push(e),
  });
  return { events, result };
}

/** The trace without wall-clock fields. */
function stable(result: AgentResult): unknown {
  return JSON.parse(JSON.stringify(result, (key, value) => (/ms$|Ms$|timings/.test(key) ? undefined : value)));
}

describe("stage events", () => {
  const rescued = () => ({
    planner: [' issue_write(owner="acme", repo="webapp", title="Crash on save")'],
    solver: ["Created issue 3, Crash on save."],
  });

  it("arrive in the order the stages happen, each model call with its whole prompt", async () => {
    const { events, result } = await runWatched('Create an issue titled "Crash on save" in acme/webapp', rescued);
    expect(events.map((event) => event.type)).toEqual([
      "route",
      "tools_shown",
      "skill",
      "model_call_start",
      "model_call_end",
      "plan",
      "wave",
      "rescue",
      "wave",
      "tool_call",
      "tool_result",
      "model_call_start",
      "model_call_end",
      "answer",
    ]);
    const starts = events.filter((event) => event.type === "model_call_start");
    expect(starts.map((event) => event.type === "model_call_start" && event.prompt)).toEqual(
      result.modelCalls.map((call) => call.prompt),
    );
    const answer = events.at(-1);
    expect(answer).toEqual({ type: "answer", answer: result.answer, answeredBy: "solver" });
  });

  it("report the fallback, its turns and a blocked write", async () => {
    const { events } = await runWatched("Show issue 99 in acme/webapp", () => ({
      planner: [' issue_read(method="get", owner="acme", repo="webapp", issue_number=99)'],
      fallback: [
        ' List instead.\nAction: list_issues\nAction Input: {"owner": "acme", "repo": "webapp"}',
        " Done.\nFinal Answer: Issue 99 does not exist.",
      ],
    }));
    const types = events.map((event) => event.type);
    expect(types.filter((type) => type === "turn")).toHaveLength(2);
    expect(types.indexOf("fallback")).toBeLessThan(types.indexOf("turn"));
    const fallback = events.find((event) => event.type === "fallback");
    expect(fallback?.type === "fallback" && fallback.reason).toContain("issue #99 not found");
  });

  it("leave the trace as it is without a listener, and a throwing listener breaks nothing", async () => {
    const query = 'Create an issue titled "Crash on save" in acme/webapp';
    const watched = await runWatched(query, rescued);
    host.reset();
    const quiet = await runAgent(query, { model: new ScriptedModel(rescued()), tools: host });
    host.reset();
    const broken = await runAgent(query, {
      model: new ScriptedModel(rescued()),
      tools: host,
      onEvent: () => {
        throw new Error("viewer broke");
      },
    });
    expect(stable(quiet)).toEqual(stable(watched.result));
    expect(stable(broken)).toEqual(stable(watched.result));
  });
});
