/**
 * A model that writes thousands of calls: at most MAX_PLAN_STEPS / MAX_CALLS_PER_TURN are made, the
 * dropped ones are noted, at most MAX_CALLS_IN_FLIGHT run at once, and the per-query abort signal does
 * not collect listeners (the MCP SDK adds one per call and never removes it).
 */

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemoryToolHost } from "../../../mock-servers/kit/memory-host.ts";
import { hubSpec } from "../../../mock-servers/kit/sample-servers.ts";
import { runAgent } from "../../../src/agent/agent.ts";
import { MAX_CALLS_IN_FLIGHT } from "../../../src/agent/executor.ts";
import { MAX_PLAN_STEPS, parsePlan } from "../../../src/agent/plan-parser.ts";
import { MAX_CALLS_PER_TURN } from "../../../src/agent/tool-runner.ts";
import { ScriptedModel } from "../../../src/models/scripted.ts";
import type { CallOptions, ToolCallResult, ToolHost } from "../../../src/tool-protocol/types.ts";

/** The in-process MCP host, counting calls in flight. */
class CountingHost implements ToolHost {
  inFlight = 0;
  maxInFlight = 0;
  calls = 0;
  constructor(private readonly inner: MemoryToolHost) {}
  listTools() {
    return this.inner.listTools();
  }
  async callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<ToolCallResult> {
    this.calls += 1;
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      // a turn of the event loop, so that calls started together really overlap
      await new Promise((resolve) => setImmediate(resolve));
      return await this.inner.callTool(name, args, options);
    } finally {
      this.inFlight -= 1;
    }
  }
}

let memory: MemoryToolHost;
let host: CountingHost;
const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);

beforeAll(async () => {
  memory = await MemoryToolHost.open([hubSpec]);
  process.on("warning", onWarning);
});
afterAll(async () => {
  process.off("warning", onWarning);
  await memory.close();
});
beforeEach(() => {
  memory.reset();
  host = new CountingHost(memory);
  warnings.length = 0;
});
afterEach(async () => {
  // warnings are emitted on the next tick
  await new Promise((resolve) => setImmediate(resolve));
  expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
});

const planLines = (count: number) =>
  Array.from({ length: count }, (_, index) => `#E${index + 1} = list_issues("acme", "webapp", "OPEN", ${index + 1})`);

describe("caps on what one model output may run", () => {
  it("parsing a 2,000-step plan keeps the first MAX_PLAN_STEPS and notes the rest", () => {
    const plan = parsePlan(planLines(2000).join("\n"), memory.listTools());
    expect(plan.steps.map((step) => step.id)).toEqual(planLines(MAX_PLAN_STEPS).map((_, i) => `#E${i + 1}`));
    expect(plan.notes).toContain(
      `${2000 - MAX_PLAN_STEPS} steps past the first ${MAX_PLAN_STEPS} (from #E17): dropped, not run`,
    );
  });

  it("a plan of hundreds of steps runs at most the cap, at most K at once, and records the note", async () => {
    const model = new ScriptedModel({ planner: [planLines(2000).join("\n")], solver: ["There are open issues."] });
    const result = await runAgent("List the open issues in acme/webapp", { config: {}, model, tools: host });
    expect(result.error).toBeUndefined();
    expect(host.calls).toBe(MAX_PLAN_STEPS);
    expect(result.toolCalls).toHaveLength(MAX_PLAN_STEPS);
    expect(host.maxInFlight).toBeGreaterThan(1);
    expect(host.maxInFlight).toBeLessThanOrEqual(MAX_CALLS_IN_FLIGHT);
    expect(
      result.plan?.notes.some((note) => /steps past the first 16 \(from #E17\): dropped, not run/.test(note)),
    ).toBe(true);
  });

  it("a jsonl turn of 500 calls makes at most the cap and tells the model about the rest", async () => {
    // short calls, so that all 500 fit under the output cut (MAX_OUTPUT_CHARS)
    const calls = Array.from(
      { length: 500 },
      (_, index) => `{"type":"tool_call","name":"get_me","arguments":{"n":${index}}}`,
    );
    const model = new ScriptedModel({ jsonl: [calls.join("\n"), '{"type":"final_answer","content":"Done."}'] });
    const result = await runAgent("List the open issues in acme/webapp", {
      config: { strategy: "jsonl" },
      model,
      tools: host,
    });
    expect(result.answer).toBe("Done.");
    expect(host.calls).toBe(MAX_CALLS_PER_TURN);
    const note = `${500 - MAX_CALLS_PER_TURN} tool calls past the first ${MAX_CALLS_PER_TURN} of this turn: dropped, not made`;
    expect(result.iterations.filter((iteration) => iteration.action)).toHaveLength(MAX_CALLS_PER_TURN);
    expect(result.iterations.at(-2)?.note).toBe(note);
    const second = model.requestsFor("jsonl")[1];
    expect(second?.kind === "chat" && second.messages.at(-1)?.content).toContain(note);
  });

  it("a native turn of 500 calls makes at most the cap and answers every dropped call", async () => {
    const toolCalls = Array.from({ length: 500 }, (_, index) => ({ id: `c${index}`, name: "get_me", arguments: {} }));
    const model = new ScriptedModel({ native: [{ toolCalls }, { text: "You are octo-dev." }] });
    const result = await runAgent("Who am I?", {
      config: { strategy: "native", limits: { nativeMaxCalls: 1000 } },
      model,
      tools: host,
    });
    expect(result.answer).toBe("You are octo-dev.");
    expect(host.calls).toBe(MAX_CALLS_PER_TURN);
    const note = `${500 - MAX_CALLS_PER_TURN} tool calls past the first ${MAX_CALLS_PER_TURN} of this turn: dropped, not made`;
    expect(result.iterations.at(-1)?.note).toBe(note);
    const second = model.requestsFor("native")[1];
    const answered = second?.kind === "chat" ? second.messages.filter((message) => message.role === "tool") : [];
    expect(answered).toHaveLength(500);
    expect(answered.at(-1)?.content).toBe(note);
  });
});
