/**
 * The scorer's view of a trace against the real thing. The two functions below stop compiling
 * (`pnpm typecheck`) if AgentResult ever stops being assignable to TraceView, or ToolDefinition to
 * ToolView; the tests score real agent runs (the scripted model against in-process MCP servers) so
 * the field meanings are checked too, not only their types.
 */

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemoryToolHost } from "../../../../mock-servers/kit/memory-host.ts";
import { chatSpec, type HubState, hubSpec } from "../../../../mock-servers/kit/sample-servers.ts";
import { runAgent } from "../../../../src/agent/agent.ts";
import type { AgentConfigInput, AgentResult } from "../../../../src/agent/types.ts";
import type { DatasetItem, NamedStateCheck } from "../../../../src/bench/dataset/types.ts";
import { scoreItem } from "../../../../src/bench/scoring/score-item.ts";
import { item } from "../../../../src/bench/scoring/testing/fixtures.ts";
import type { StateCheckOutcome, ToolView, TraceView } from "../../../../src/bench/scoring/types.ts";
import { type Script, ScriptedModel } from "../../../../src/models/scripted.ts";
import type { ToolDefinition } from "../../../../src/tool-protocol/types.ts";

const asTraceView = (result: AgentResult): TraceView => result;
const asToolViews = (tools: ToolDefinition[]): readonly ToolView[] => tools;

let host: MemoryToolHost;

beforeAll(async () => {
  host = await MemoryToolHost.open([hubSpec, chatSpec]);
});
afterAll(async () => {
  await host.close();
});
beforeEach(() => host.reset());

/** The runner's job in miniature: run the agent, then check the end state on the server. */
async function runAndScore(gold: DatasetItem, script: Script, config: AgentConfigInput = {}) {
  const result = await runAgent(gold.query, { config, model: new ScriptedModel(script), tools: host });
  const issues = host.state<HubState>("github").repos["acme/webapp"] ?? [];
  const stateChecks: StateCheckOutcome[] = (gold.state ?? []).map((spec) => {
    const found = issues.find((issue) => issue.title === (spec as NamedStateCheck).args.title);
    return { spec, pass: found !== undefined, detail: found ? `issue #${found.number}` : "no such issue" };
  });
  return scoreItem({ item: gold, trace: asTraceView(result), stateChecks, tools: asToolViews(host.listTools()) });
}

const crashOnSave = item({
  id: "gh-crash",
  query: 'Create an issue titled "Crash on save" in acme/webapp',
  calls: [{ tool: "issue_write", args: { method: "create", owner: "acme", repo: "webapp", title: "Crash on save" } }],
  state: [
    { server: "github", expect: "issue_exists", args: { owner: "acme", repo: "webapp", title: "Crash on save" } },
  ],
  answer: { contains: ["Crash on save"] },
});

describe("scoring real agent traces", () => {
  it("a rescued plan: the rescue's value is judged right and the item succeeds", async () => {
    const score = await runAndScore(crashOnSave, {
      planner: [' issue_write(owner="acme", repo="webapp", title="Crash on save")'],
      solver: ["Created issue 3, Crash on save."],
    });
    expect(score.taskSuccess).toBe(true);
    expect(score.routing).toMatchObject({ expected: "rewoo", predicted: "rewoo", ok: true });
    expect(score.rescue).toEqual({
      firstPlanFailed: true,
      recovered: true,
      recoveredBy: "rescue",
      injections: 1,
      judged: 1,
      wrong: [],
    });
    expect(score.recovered).toEqual(["missing_required"]);
    expect(score.planner?.errors).toEqual(["missing_required_param"]);
    expect(score.cost).toMatchObject({ modelCalls: 2, toolCalls: 1, writeBlocks: 0 });
    expect(score.latency.totalMs).toBeGreaterThan(0);
  });

  it("a ReAct fallback after a hallucinated step, with a duplicate write blocked", async () => {
    const score = await runAndScore(
      crashOnSave,
      {
        planner: [' create_issue(title="Crash on save")'],
        fallback: [
          'Thought: use the right tool\nAction: issue_write\nAction Input: {"method": "create", "owner": "acme", "repo": "webapp", "title": "Crash on save"}',
          'Thought: again\nAction: issue_write\nAction Input: {"method": "create", "owner": "acme", "repo": "webapp", "title": "Crash on save"}',
        ],
        solver: ["Created Crash on save."],
      },
      { fallback: true, writeGuard: true },
    );
    expect(score.taskSuccess).toBe(true);
    expect(score.toolChoice).toMatchObject({ firstCall: false, callSet: true, hallucinated: ["create_issue"] });
    expect(score.rescue).toMatchObject({ firstPlanFailed: true, recoveredBy: "fallback" });
    expect(score.cost).toMatchObject({ toolCalls: 1, writeBlocks: 1 });
    expect(score.recovered).toEqual(["hallucinated_tool", "blocked_duplicate_write"]);
  });

  it("a plan with the wrong title fails on the value, the state and the answer", async () => {
    const score = await runAndScore(crashOnSave, {
      planner: [' issue_write(method="create", owner="acme", repo="webapp", title="Crash")'],
      solver: ["Created Crash."],
    });
    expect(score.taskSuccess).toBe(false);
    expect(score.failures).toEqual(["wrong_value", "state_mismatch", "answer_mismatch"]);
    expect(score.params).toMatchObject({ argsCorrect: 3, argsTotal: 4 });
  });
});
