/**
 * One test per difference between `onsetlab` (the design document's pipeline, doc-era OnsetLab
 * parameters) and `onsetlab-plus` (this project's): a scripted model against in-process servers, each
 * run once with the axis at OnsetLab's value and once at this project's, everything else as in
 * onsetlab-plus, so each test shows that one switch. A last test runs the whole `onsetlab` pipeline.
 */

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemoryToolHost } from "../../../mock-servers/kit/memory-host.ts";
import { type ChatState, chatSpec, type HubState, hubSpec } from "../../../mock-servers/kit/sample-servers.ts";
import type { ServerSpec } from "../../../mock-servers/kit/types.ts";
import { LOOP_FAILURE_MESSAGE, runAgent } from "../../../src/agent/agent.ts";
import { filterTools, rankTools } from "../../../src/agent/filter.ts";
import { rankOnsetlab } from "../../../src/agent/filter-onsetlab.ts";
import { buildPlannerPrompt, PLAN_PREFIX } from "../../../src/agent/planner.ts";
import { routeByRules } from "../../../src/agent/router.ts";
import { buildSolverPrompt } from "../../../src/agent/solver.ts";
import { defineTool } from "../../../src/agent/testing/definitions.ts";
import { isBuiltin } from "../../../src/agent/tool-schema.ts";
import { type AgentConfigInput, ONSETLAB_AXES, PLUS_AXES } from "../../../src/agent/types.ts";
import { coerceArguments, coerceBasic } from "../../../src/mcp/coerce.ts";
import { type Script, ScriptedModel } from "../../../src/models/scripted.ts";

/** A one-tool stand-in for the registry's `builtin` server. */
const builtinSpec: ServerSpec<Record<string, never>> = {
  name: "builtin",
  version: "0.0.1",
  purpose: "A calculator standing in for the built-in tools.",
  createState: () => ({}),
  tools: [
    {
      name: "calculator",
      description: "Evaluate an arithmetic expression.",
      inputSchema: { type: "object", properties: { expression: { type: "string" } }, required: ["expression"] },
      outputSchema: { type: "object", properties: { result: { type: "number" } }, required: ["result"] },
      annotations: { readOnlyHint: true },
      handler: () => ({ result: 42 }),
    },
  ],
  checks: {},
};

let host: MemoryToolHost;

beforeAll(async () => {
  host = await MemoryToolHost.open([builtinSpec, hubSpec, chatSpec]);
});
afterAll(async () => {
  await host.close();
});
beforeEach(() => {
  host.reset();
  host.received.length = 0;
});

/** onsetlab-plus with one axis at OnsetLab's value (or the axis as given); the selector call only where a test asks for it. */
function withAxis(change: AgentConfigInput): AgentConfigInput {
  return { ...PLUS_AXES, toolSelection: "ranked", ...change };
}

async function run(query: string, script: Script, config: AgentConfigInput) {
  const model = new ScriptedModel(script);
  const result = await runAgent(query, { config, model, tools: host });
  model.assertFinished();
  return { result, model };
}

function promptOf(
  model: ScriptedModel,
  stage: "select" | "planner" | "solver" | "react" | "fallback" | "router",
  index = 0,
) {
  const request = model.requestsFor(stage)[index];
  if (request?.kind !== "complete") throw new Error(`no ${stage} prompt #${index}`);
  return request;
}

describe("router: onsetlab | plus", () => {
  it("onsetlab: `help` anywhere is meta, and a meta DIRECT still gets the intent check (ACTION → REWOO)", async () => {
    const query = "help me close issue 1 in acme/webapp";
    const plus = await run(
      query,
      {
        planner: [' issue_write(method="update", owner="acme", repo="webapp", issue_number=1, state="closed")'],
        solver: ["Closed."],
      },
      withAxis({ router: "plus" }),
    );
    expect(plus.result.route).toMatchObject({ route: "REWOO", rule: "default", llmAsked: false });

    const onsetlab = await run(
      query,
      {
        router: ["ACTION"],
        planner: [' issue_write(method="update", owner="acme", repo="webapp", issue_number=1, state="closed")'],
        solver: ["Closed."],
      },
      withAxis({ router: "onsetlab" }),
    );
    expect(onsetlab.result.route).toMatchObject({ route: "REWOO", rule: "llm", llmAsked: true, llmAnswer: "ACTION" });
    expect(onsetlab.result.modelCalls.map((call) => call.stage)).toEqual(["router", "planner", "solver"]);
  });

  it("onsetlab: sequence words win over exploratory ones; plus sends the same query to ReAct", () => {
    const tools = host.listTools();
    const query = "Find the open issues in acme/webapp then post a summary to C01GENERAL";
    expect(routeByRules(query, tools, "plus")).toMatchObject({ route: "REACT", rule: "exploratory" });
    expect(routeByRules(query, tools, "onsetlab")).toMatchObject({ route: "REWOO", rule: "sequence" });
    // "find" about a file is not exploratory for OnsetLab
    expect(routeByRules("find the issues file in acme/webapp", tools, "onsetlab").rule).not.toBe("exploratory");
  });
});

describe("relevance: onsetlab | plus", () => {
  it("onsetlab: a built-in's verb found as a substring makes a general question relevant (REWOO); plus asks the model", async () => {
    const query = "What is the capital of France?";
    const onsetlab = await run(
      query,
      { planner: [' calculator(expression="1+1")'], solver: ["Paris."] },
      withAxis({ relevance: "onsetlab" }),
    );
    // "what is" is one of the calculator's verbs in OnsetLab's router
    expect(onsetlab.result.route).toMatchObject({ route: "REWOO", llmAsked: false });

    const plus = await run(query, { router: ["DIRECT"], solver: ["Paris."] }, withAxis({ relevance: "plus" }));
    expect(plus.result.route).toMatchObject({ route: "DIRECT", rule: "llm", llmAsked: true });
    expect(plus.result.toolCalls).toEqual([]);
  });
});

describe("ranking: onsetlab | plus", () => {
  it("onsetlab: unstemmed words and names split on `_` only, so a hyphenated name never matches a word", async () => {
    const tools = [
      defineTool("calendar", "create-event", "Create a calendar event.", {}),
      defineTool("github", "create_issue", "Create an issue.", {}),
    ];
    const top = (ranking: "onsetlab" | "plus") =>
      filterTools("create an event", tools, 1, "ranked", ranking).tools.map((tool) => tool.name);
    expect(top("plus")).toEqual(["create-event"]);
    // OnsetLab: `create` is a whole name word of create_issue (5) but only a substring of create-event (3)
    expect(top("onsetlab")).toEqual(["create_issue"]);

    const query = "Check my profile";
    const scored = async (ranking: "onsetlab" | "plus") =>
      (await run(query, { planner: [" get_me()"], solver: ["octo-dev"] }, withAxis({ ranking }))).result.tools.scores;
    const servers = host.listTools().filter((tool) => !isBuiltin(tool));
    expect(await scored("onsetlab")).toEqual(rankOnsetlab(query, host.listTools()));
    expect(await scored("plus")).toEqual(rankTools(query, host.listTools()));
    expect(rankOnsetlab(query, servers)[0]).toEqual({ name: "get_me", score: 6.5 }); // check → get, unstemmed
  });
});

describe("parser: onsetlab | tolerant", () => {
  it("onsetlab: a call after prose on its line is no step (the fallback runs); tolerant reads it", async () => {
    const plan = ' I will list them: list_issues(owner="acme", repo="webapp")';
    const tolerant = await run(
      "List the issues in acme/webapp",
      { planner: [plan], solver: ["Two."] },
      withAxis({ parser: "tolerant" }),
    );
    expect(tolerant.result.toolCalls.map((call) => call.tool)).toEqual(["list_issues"]);

    const onsetlab = await run(
      "List the issues in acme/webapp",
      { planner: [plan], fallback: ["Final Answer: I could not list them."] },
      withAxis({ parser: "onsetlab" }),
    );
    expect(onsetlab.result.plan?.steps).toEqual([]);
    expect(onsetlab.result.fallback).toMatchObject({ used: true, reason: "the planner wrote no step" });
  });

  it("onsetlab: `word:digit` is rewritten inside values, and a step is checked against the tools shown", async () => {
    const query = "List the issues in acme/webapp";
    const plan = ' list_issues(owner="acme", repo="webapp", since="2026-03-01T13:00:00Z")';
    const { result } = await run(query, { planner: [plan], solver: ["Two."] }, withAxis({ parser: "onsetlab" }));
    expect(result.plan?.steps[0]?.args).toMatchObject({ since: "2026-03-01T13=00=00Z" });
    const hidden = await run(
      query,
      { planner: [" get_me()"], fallback: ["Final Answer: no."] },
      withAxis({ parser: "onsetlab", filter: 1, workflows: false, rankClauses: false }),
    );
    expect(hidden.result.tools.filtered).not.toContain("get_me");
    expect(hidden.result.plan?.steps[0]).toMatchObject({ tool: "get_me", error: "Tool 'get_me' not found." });
  });
});

/** Tool retrieval with only the given technique on (the others off), two tools shown; the plan's fate aside. */
const retrieval = (change: AgentConfigInput) =>
  withAxis({ filter: 2, toolTerms: "description", rankClauses: false, workflows: false, fallback: false, ...change });

describe("tool_terms: description | schema", () => {
  it("schema: everyday verbs meet operations, enum values and kinds of value meet parameters", async () => {
    const query = "Mark issue #3 in acme/webapp as closed";
    const script = (): Script => ({
      planner: [' issue_write(method="update", owner="acme", repo="webapp", issue_number=3, state="closed")'],
      solver: ["Closed."],
    });
    const description = await run(query, script(), retrieval({ toolTerms: "description" }));
    expect(description.result.tools.filtered).toEqual(["list_issues", "issue_read"]);
    const schema = await run(query, script(), retrieval({ toolTerms: "schema" }));
    expect(schema.result.tools.filtered).toEqual(["issue_write", "issue_read"]);
  });
});

describe("rank_clauses: off | on", () => {
  it("on: each part of a two-part request gets its best tool", async () => {
    const query = "Read issue 3 of acme/webapp, then post its title to #general";
    const script = (): Script => ({
      planner: [' issue_read(method="get", owner="acme", repo="webapp", issue_number=3)'],
      solver: ["Done."],
    });
    const off = await run(query, script(), retrieval({ rankClauses: false }));
    expect(off.result.tools.filtered).toEqual(["issue_read", "list_issues"]);
    const on = await run(query, script(), retrieval({ rankClauses: true }));
    expect(on.result.tools.filtered).toEqual(["issue_read", "slack_post_message"]);
  });
});

describe("workflows: off | on", () => {
  it("on: a tool needing a channel id the query names only as #general brings the channel lister", async () => {
    const query = "post hello in #general";
    const script = (): Script => ({
      planner: [' slack_post_message(channel_id="C01GENERAL", text="hello")'],
      solver: ["Posted."],
    });
    const off = await run(query, script(), retrieval({ workflows: false }));
    expect(off.result.tools.filtered).toEqual(["slack_post_message", "calculator"]);
    host.reset();
    const on = await run(query, script(), retrieval({ workflows: true }));
    expect(on.result.tools.filtered).toEqual(["slack_post_message", "slack_list_channels"]);
  });
});

describe("tool_selection: ranked | model", () => {
  const query = "post hello in #general";
  const script = (select: Script["select"]): Script => ({
    ...(select ? { select } : {}),
    planner: [' slack_post_message(channel_id="C01GENERAL", text="hello")'],
    solver: ["Posted."],
  });
  it("model: one call sees every candidate by server and its picks come first; the ranking fills the rest", async () => {
    const ranked = await run(query, script(undefined), retrieval({ toolSelection: "ranked" }));
    expect(ranked.result.tools.filtered).toEqual(["slack_post_message", "calculator"]);
    expect(ranked.result.modelCalls.map((call) => call.stage)).not.toContain("select");
    host.reset();
    const model = await run(
      query,
      script(["- slack_list_channels\n- no_such_tool"]),
      retrieval({ toolSelection: "model" }),
    );
    expect(model.result.tools.selected).toEqual(["slack_list_channels"]);
    expect(model.result.tools.filtered).toEqual(["slack_list_channels", "slack_post_message"]);
    const prompt = promptOf(model.model, "select").prompt;
    expect(prompt).toContain("\nslack:\n- slack_list_channels: List public channels in the workspace.\n");
    expect(prompt.trimEnd().endsWith("Tools needed:")).toBe(true);
    expect(model.result.modelCalls[0]?.stage).toBe("select");
  });
  it("model: a failed selector call leaves the ranking's tools; no call when nothing would be cut", async () => {
    const failed = await run(query, script([{ error: new Error("down") }]), retrieval({ toolSelection: "model" }));
    expect(failed.result.tools.filtered).toEqual(["slack_post_message", "calculator"]);
    expect(failed.result.tools.selected).toBeUndefined();
    host.reset();
    const all = await run(query, script(undefined), retrieval({ toolSelection: "model", filter: "all" }));
    expect(all.result.modelCalls.map((call) => call.stage)).not.toContain("select");
  });
});

describe("plan_steps: one | many", () => {
  const query = "Get my GitHub user, then list the issues in acme/webapp";
  const plan = ' get_me()\n#E2 = list_issues(owner="acme", repo="webapp")';

  it("one: asks for a single call and stops at the second step; many runs the whole plan", async () => {
    const many = await run(query, { planner: [plan], solver: ["Done."] }, withAxis({ planSteps: "many" }));
    expect(many.result.toolCalls.map((call) => call.tool)).toEqual(["get_me", "list_issues"]);
    expect(promptOf(many.model, "planner").prompt).toContain("Plan the tool calls");

    const one = await run(query, { planner: [plan], solver: ["Done."] }, withAxis({ planSteps: "one" }));
    const request = promptOf(one.model, "planner");
    expect(request.prompt).toContain("single tool call");
    expect(request.prompt).not.toContain("#E1.items[0].id");
    expect(request.options?.stop).toEqual(expect.arrayContaining(["\n#E2", "\n\n"]));
    // the model ignored the stop: the plan is cut there anyway
    expect(one.result.plan?.steps.map((step) => step.tool)).toEqual(["get_me"]);
    expect(one.result.toolCalls.map((call) => call.tool)).toEqual(["get_me"]);
  });
});

describe("plan_examples: placeholders | concrete", () => {
  it("placeholders: abstract values, enums with `or`, an examples line for the first two tools", () => {
    const tools = host.listTools().filter((tool) => tool.server === "github");
    const abstract = buildPlannerPrompt({ query: "q", tools, examples: "placeholders" });
    expect(abstract).toContain('list_issues(owner="...", repo="...") - List issues');
    expect(abstract).toContain('issue_read(method="get" or "get_comments", owner="...", repo="...", issue_number=N)');
    expect(abstract).toContain(
      'Examples:\n#E1 = list_issues(owner="example", repo="example")\n#E1 = issue_read(method="get", owner="example", repo="example", issue_number=1.0)\n\n',
    );
    const concrete = buildPlannerPrompt({ query: "q", tools, examples: "concrete" });
    expect(concrete).toContain('list_issues(owner="octocat", repo="hello-world")');
    expect(concrete).toContain('method="get"|"get_comments"');
    expect(concrete).not.toContain("Examples:");
    expect(concrete.endsWith(`Task: q\n${PLAN_PREFIX}`)).toBe(true);
  });
});

describe("field_refs: off | on", () => {
  const query = "Get my GitHub user, then rename issue 1 in acme/webapp after my login";
  const plan =
    ' get_me()\n#E2 = issue_write(method="update", owner="acme", repo="webapp", issue_number=1, title=#E1.login)';

  it("off: #E1 is the whole result text and the path stays as text; on: the field's value", async () => {
    const on = await run(query, { planner: [plan], solver: ["Done."] }, withAxis({ fieldRefs: true }));
    expect(on.result.toolCalls[1]?.args.title).toBe("octo-dev");

    const off = await run(query, { planner: [plan], solver: ["Done."] }, withAxis({ fieldRefs: false }));
    expect(off.result.toolCalls[1]?.args.title).toBe('{"login":"octo-dev","name":"Octo Dev"}.login');
    expect(host.state<HubState>("github").repos["acme/webapp"]?.[0]?.title).toBe(
      '{"login":"octo-dev","name":"Octo Dev"}.login',
    );
  });
});

describe("validation: strict | lenient", () => {
  /** One planned call under the given validation, with no rescue and no fallback to mend it. */
  const planned = (validation: "strict" | "lenient", query: string, plan: string) =>
    run(query, { planner: [plan], solver: ["Done."] }, withAxis({ validation, rescue: "off", fallback: false }));

  it("strict: a required parameter in another spelling is missing before renaming can help", async () => {
    const plan = ' issue_read(method="get", owner="acme", repo="webapp", issueNumber=1)';
    const lenient = await planned("lenient", "Show issue 1 in acme/webapp", plan);
    expect(lenient.result.toolCalls[0]).toMatchObject({
      args: { issue_number: 1 },
      renamed: ["issueNumber→issue_number"],
      ok: true,
    });

    const strict = await planned("strict", "Show issue 1 in acme/webapp", plan);
    expect(strict.result.toolCalls).toEqual([]);
    expect(strict.result.steps[0]).toMatchObject({ status: "skipped", missing: ["issue_number"] });
  });

  it("strict: no enum-case fix and no scalar wrapped into an array; strings still become numbers", async () => {
    const plan = ' list_issues(owner="acme", repo="webapp", state="open", perPage="5")';
    const lenient = await planned("lenient", "List open issues in acme/webapp", plan);
    expect(lenient.result.toolCalls[0]?.coerced).toEqual(['state: enum case "open"→"OPEN"', "perPage: string→number"]);

    const strict = await planned("strict", "List open issues in acme/webapp", plan);
    expect(strict.result.toolCalls[0]?.coerced).toEqual(["perPage: string→number"]);
    expect(strict.result.toolCalls[0]).toMatchObject({ args: { state: "open", perPage: 5 }, ok: false });

    const schema = {
      type: "object",
      properties: { labels: { type: "array", items: { type: "string" } }, draft: { type: "boolean" } },
    };
    expect(coerceArguments(schema, { labels: "bug", draft: "true" }).args).toEqual({ labels: ["bug"], draft: true });
    expect(coerceBasic(schema, { labels: "bug", draft: "yes" }).args).toEqual({ labels: "bug", draft: true });
    expect(coerceBasic(schema, { labels: '["bug"]' }).args).toEqual({ labels: ["bug"] });
  });
});

describe("rescue: onsetlab | extended", () => {
  it("onsetlab fills one of its seven kinds when every step failed, like extended", async () => {
    for (const rescue of ["onsetlab", "extended"] as const) {
      host.reset();
      const { result } = await run(
        "Show issue #2 in acme/webapp",
        { planner: [' issue_read(method="get", owner="acme", repo="webapp")'], solver: ["Dark mode."] },
        withAxis({ rescue }),
      );
      expect(result.rescues).toMatchObject([{ param: "issue_number", value: 2 }]);
      expect(result.toolCalls).toMatchObject([{ tool: "issue_read", args: { issue_number: 2 }, ok: true }]);
    }
  });

  it("onsetlab does nothing after a partial success, nor for a kind it does not know", async () => {
    const query = "Get my user, then post hello to C01GENERAL";
    const plan = ' get_me()\n#E2 = slack_post_message(text="hello")';
    const extended = await run(query, { planner: [plan], solver: ["Posted."] }, withAxis({ rescue: "extended" }));
    expect(extended.result.rescues).toMatchObject([
      { param: "channel_id", value: "C01GENERAL", pattern: "channel-id" },
    ]);
    host.reset();

    const onsetlab = await run(
      query,
      { planner: [plan], fallback: ["I will stop.\nFinal Answer: Could not post."] },
      withAxis({ rescue: "onsetlab" }),
    );
    expect(onsetlab.result.rescues).toEqual([]);
    // and with every step failed, still nothing: channel_id is not one of its kinds
    const alone = await run(
      "Post hello to C01GENERAL",
      { planner: [' slack_post_message(text="hello")'], fallback: ["Final Answer: Could not post."] },
      withAxis({ rescue: "onsetlab" }),
    );
    expect(alone.result.rescues).toEqual([]);
    expect(host.state<ChatState>("slack").messages).toEqual([]);
  });
});

describe("fallback_trigger: all_failed | any_failed", () => {
  const query = "Get my user, then show issue 99 in acme/webapp";
  const plan = ' get_me()\n#E2 = issue_read(method="get", owner="acme", repo="webapp", issue_number=99)';

  it("all_failed: a partial success goes to the solver; any_failed: to the fallback", async () => {
    const any = await run(
      query,
      { planner: [plan], fallback: ["Final Answer: Issue 99 does not exist."] },
      withAxis({ fallbackTrigger: "any_failed" }),
    );
    expect(any.result.fallback.used).toBe(true);

    const all = await run(
      query,
      { planner: [plan], solver: ["Issue 99 was not found."] },
      withAxis({ fallbackTrigger: "all_failed" }),
    );
    expect(all.result.fallback.used).toBe(false);
    expect(all.result.answeredBy).toBe("solver");
  });
});

describe("fallback_iterations: 1 | 2", () => {
  it("gives the fallback that many turns", async () => {
    const failingTurn =
      'Retry.\nAction: issue_read\nAction Input: {"method": "get", "owner": "acme", "repo": "webapp", "issue_number": 99}';
    for (const iterations of [1, 2]) {
      const { result, model } = await run(
        "Show issue 99 in acme/webapp",
        {
          planner: [' issue_read(method="get", owner="acme", repo="webapp", issue_number=99)'],
          fallback: Array.from({ length: iterations }, () => failingTurn),
          solver: ["Issue 99 was not found."],
        },
        withAxis({ fallbackIterations: iterations }),
      );
      expect(model.requestsFor("fallback")).toHaveLength(iterations);
      expect(result.fallback.iterations).toHaveLength(iterations);
    }
  });
});

describe("react_protocol: call | json", () => {
  const script = (action: string): Script => ({
    react: [`I list them.\n${action}`, "I know it.\nFinal Answer: One open issue."],
  });

  it("call: asks for `Action: tool(...)` and repeats the turn as written; json: Action Input", async () => {
    const call = await run(
      "Search the open issues of acme/webapp",
      script('Action: list_issues(owner="acme", repo="webapp", state="OPEN")'),
      withAxis({ strategy: "react", reactProtocol: "call" }),
    );
    const first = promptOf(call.model, "react");
    expect(first.prompt).toContain("Action: one call of a listed tool");
    expect(first.prompt).not.toContain("Action Input");
    expect(first.options).toMatchObject({ maxTokens: 300, stop: ["Observation:", "\n\n\n"] });
    expect(promptOf(call.model, "react", 1).prompt).toContain(
      'Thought: I list them.\nAction: list_issues(owner="acme", repo="webapp", state="OPEN")\nObservation: ',
    );
    expect(call.result.toolCalls[0]).toMatchObject({ tool: "list_issues", ok: true });

    const json = await run(
      "Search the open issues of acme/webapp",
      script('Action: list_issues\nAction Input: {"owner": "acme", "repo": "webapp", "state": "OPEN"}'),
      withAxis({ strategy: "react", reactProtocol: "json" }),
    );
    expect(promptOf(json.model, "react").prompt).toContain("Action Input: the arguments as JSON");
    expect(promptOf(json.model, "react", 1).prompt).toContain(
      'Action: list_issues\nAction Input: {"owner":"acme","repo":"webapp","state":"OPEN"}\nObservation: ',
    );
  });
});

describe("react_ending: failure_message | solver", () => {
  const plan = ' issue_read(method="get", owner="acme", repo="webapp", issue_number=99)';
  const failingTurn =
    'Retry.\nAction: issue_read\nAction Input: {"method": "get", "owner": "acme", "repo": "webapp", "issue_number": 98}';

  it("failure_message: nothing succeeded → the fixed message, no solver call; solver: the solver over everything", async () => {
    const fixed = await run(
      "Show issue 99 in acme/webapp",
      { planner: [plan], fallback: [failingTurn] },
      withAxis({ reactEnding: "failure_message", fallbackIterations: 1 }),
    );
    expect(fixed.result.answer).toBe(LOOP_FAILURE_MESSAGE);
    expect(fixed.result.answeredBy).toBe("fallback");
    expect(fixed.model.requestsFor("solver")).toHaveLength(0);

    const solver = await run(
      "Show issue 99 in acme/webapp",
      { planner: [plan], fallback: [failingTurn], solver: ["Issue 99 was not found."] },
      withAxis({ reactEnding: "solver", fallbackIterations: 1 }),
    );
    expect(solver.result.answeredBy).toBe("solver");
    expect(promptOf(solver.model, "solver").prompt).toContain("[#E1 issue_read] ERROR:");
  });

  it("failure_message: a fallback success → the solver over the fallback's successes only", async () => {
    const { model } = await run(
      "Show issue 99 in acme/webapp",
      {
        planner: [plan],
        fallback: [
          'Try 1.\nAction: issue_read\nAction Input: {"method": "get", "owner": "acme", "repo": "webapp", "issue_number": 1}',
        ],
        solver: ["Issue 1 is Login fails."],
      },
      withAxis({ reactEnding: "failure_message", fallbackIterations: 1 }),
    );
    const prompt = promptOf(model, "solver").prompt;
    expect(prompt).toContain("Login fails");
    expect(prompt).not.toContain("#E1 issue_read");
  });
});

describe("write_guard: per_tool | per_call", () => {
  const writeTurn = (title: string) =>
    `Write.\nAction: issue_write\nAction Input: {"method": "create", "owner": "acme", "repo": "webapp", "title": "${title}"}`;
  const postTurn = 'Post.\nAction: slack_post_message\nAction Input: {"channel_id": "C01GENERAL", "text": "hi"}';
  const script: Script = {
    react: [writeTurn("A"), writeTurn("B"), postTurn, postTurn, "Final Answer: Done."],
  };
  /** Issues A and B created, then "hi" posted twice, under the given guard: the calls, the titles, the posts. */
  async function writeTwice(writeGuard: "per_tool" | "per_call") {
    const { result } = await run(
      "Create issues A and B in acme/webapp and post hi",
      script,
      withAxis({ strategy: "react", writeGuard }),
    );
    const [, second, , secondPost] = result.toolCalls;
    const titles = host.state<HubState>("github").repos["acme/webapp"]?.map((issue) => issue.title);
    return { second, secondPost, titles, posts: host.state<ChatState>("slack").messages.length };
  }

  it("per_tool: one success per write tool, the repeat gets the cached success; Slack posts are not guarded", async () => {
    const { second, secondPost, titles, posts } = await writeTwice("per_tool");
    expect(second).toMatchObject({ tool: "issue_write", blocked: true, ok: true });
    expect(second?.text).toContain("already succeeded");
    expect(second?.text).toContain('"title":"A"');
    expect(secondPost).toMatchObject({ tool: "slack_post_message", ok: true });
    expect(secondPost?.blocked).toBeUndefined();
    expect(titles).toEqual(["Login fails", "Dark mode", "A"]);
    expect(posts).toBe(2);
  });

  it("per_call: different writes pass, the identical repeat is an error", async () => {
    const { second, secondPost, titles, posts } = await writeTwice("per_call");
    expect(second).toMatchObject({ tool: "issue_write", ok: true });
    expect(secondPost).toMatchObject({ tool: "slack_post_message", blocked: true, ok: false });
    expect(titles).toEqual(["Login fails", "Dark mode", "A", "B"]);
    expect(posts).toBe(1);
  });
});

describe("builtins: always | ranked", () => {
  const tools = [
    defineTool("builtin", "calculator", "Evaluate an arithmetic expression.", {}),
    defineTool("github", "list_issues", "List issues in a repository.", {}),
    defineTool("github", "get_me", "Get the authenticated user.", {}),
    defineTool("slack", "slack_post_message", "Post a message.", {}),
  ];

  it("always: built-ins shown first whatever their score, only server tools filtered", () => {
    const names = (builtins: "always" | "ranked", limit: number) =>
      filterTools("list the issues", tools, limit, builtins).tools.map((tool) => tool.name);
    expect(names("ranked", 2)).toEqual(["list_issues", "calculator"]);
    expect(names("always", 2)).toEqual(["calculator", "list_issues", "get_me"]);
    // no more server tools than the limit: nothing is filtered
    expect(names("always", 3)).toHaveLength(4);
    expect(names("ranked", 3)).toHaveLength(3);
  });

  it("shows the planner the built-ins beside the top server tools", async () => {
    const { result } = await run(
      "List the issues in acme/webapp",
      { planner: [' list_issues(owner="acme", repo="webapp")'], solver: ["Two."] },
      withAxis({ builtins: "always", filter: 1 }),
    );
    expect(result.tools.filtered).toEqual(["calculator", "list_issues"]);
  });
});

describe("solver_data: per_result | shared", () => {
  const long = { items: Array.from({ length: 40 }, (_, index) => ({ id: index, title: `Issue number ${index}` })) };
  const evidence = [
    { source: "#E1 list_issues", ok: true, text: JSON.stringify(long), data: long },
    { source: "#E2 get_me", ok: true, text: '{"login":"octo-dev"}', data: { login: "octo-dev" } },
  ];

  it("per_result: raw text, each result cut at the cap; shared: a compact rendering sharing one cap", () => {
    const raw = buildSolverPrompt({ query: "q", evidence, dataChars: 800, data: "per_result" });
    expect(raw).toContain(`[#E1 list_issues] ${JSON.stringify(long).slice(0, 800)}...`);
    expect(raw).toContain('[#E2 get_me] {"login":"octo-dev"}');
    const shared = buildSolverPrompt({ query: "q", evidence, dataChars: 800, data: "shared" });
    expect(shared).not.toContain('{"id":0');
    expect(shared).toContain("login: octo-dev");
    const block = (prompt: string) => prompt.slice(prompt.indexOf("Tool results:"), prompt.indexOf("\n\nAnswer:"));
    expect(block(shared).length).toBeLessThan(block(raw).length);
  });
});

describe("skills_in_react: off | on", () => {
  it("off: the skill's rules reach the planner only; on: the ReAct prompt too", async () => {
    const script = (): Script => ({ react: ["Final Answer: Two issues."] });
    const on = await run(
      "Search the issues of acme/webapp",
      script(),
      withAxis({ strategy: "react", skillsInReact: true }),
    );
    expect(on.result.skill?.name).toBe("github");
    expect(promptOf(on.model, "react").prompt).toContain("GitHub rules:");

    const off = await run(
      "Search the issues of acme/webapp",
      script(),
      withAxis({ strategy: "react", skillsInReact: false }),
    );
    expect(off.result.skill?.name).toBe("github");
    expect(promptOf(off.model, "react").prompt).not.toContain("GitHub rules:");
    const planned = await run(
      "List the issues of acme/webapp",
      { planner: [' list_issues(owner="acme", repo="webapp")'], solver: ["Two."] },
      withAxis({ skillsInReact: false }),
    );
    expect(promptOf(planned.model, "planner").prompt).toContain("GitHub rules:");
  });
});

describe("the whole onsetlab pipeline", () => {
  it("runs a two-call request as one step, answers from the raw result, and records its axes", async () => {
    const { result, model } = await run(
      "List the issues in acme/webapp then tell me the first title",
      {
        planner: [
          ' list_issues(owner="acme", repo="webapp")\n#E2 = issue_read(method="get", owner="acme", repo="webapp", issue_number=#E1.issues[0].number)',
        ],
        solver: ["Login fails."],
      },
      { ...ONSETLAB_AXES },
    );
    expect(result.config).toMatchObject(ONSETLAB_AXES);
    expect(result.route).toMatchObject({ route: "REWOO", rule: "sequence" });
    expect(result.toolCalls.map((call) => call.tool)).toEqual(["list_issues"]);
    expect(result.tools.filtered[0]).toBe("calculator");
    expect(promptOf(model, "solver").prompt).toContain('[#E1 list_issues] {"issues":[');
    expect(result.answer).toBe("Login fails.");
  });
});
