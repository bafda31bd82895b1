import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Script, ScriptedModel } from "../models/scripted.ts";
import { runAgent } from "./agent.ts";
import type { AgentEvent } from "./events.ts";
import { MemoryToolHost } from "./testing/memory-host.ts";
import { chatSpec, hubSpec } from "./testing/servers.ts";
import type { AgentResult } from "./types.ts";

let host: MemoryToolHost;

beforeAll(async () => {
  host = await MemoryToolHost.open([hubSpec, chatSpec]);
});
afterAll(async () => {
  await host.close();
});
beforeEach(() => host.reset());

async function run(query: string, script: () => Script): Promise<{ events: AgentEvent[]; result: AgentResult }> {
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
    const { events, result } = await run('Create an issue titled "Crash on save" in acme/webapp', rescued);
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
    const { events } = await run("Show issue 99 in acme/webapp", () => ({
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
    const watched = await run(query, rescued);
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
