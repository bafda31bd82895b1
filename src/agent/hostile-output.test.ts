/**
 * The hostile outputs issue 17 names, through the agent: a model output is cut at MAX_OUTPUT_CHARS and
 * the cut recorded; a too-deep value is a parse failure, never a RangeError; every result can be written.
 */

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Script, ScriptedModel } from "../models/scripted.ts";
import { runAgent } from "./agent.ts";
import { parseLooseJson } from "./loose-json.ts";
import { parsePlan } from "./plan-parser.ts";
import { MAX_OUTPUT_CHARS } from "./recorder.ts";
import { SAMPLE_TOOLS } from "./testing/definitions.ts";
import { MemoryToolHost } from "./testing/memory-host.ts";
import { chatSpec, hubSpec } from "./testing/servers.ts";
import type { AgentConfigInput } from "./types.ts";

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

async function run(script: Script, config: AgentConfigInput) {
  const model = new ScriptedModel(script);
  const result = await runAgent("Who am I on GitHub?", { config, model, tools: host });
  // a record must be writable whatever the model wrote
  expect(() => JSON.stringify(result)).not.toThrow();
  return result;
}

const DEEP_JSONL = '{"type":"tool_call","name":"get_me","arguments":'.repeat(5000);

describe("hostile model outputs", () => {
  it("jsonl nested 5,000 deep: a parse error fed back to the model, no tool call, no RangeError", async () => {
    const result = await run(
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
    const result = await run({ planner: [plan], solver: ["You are octocat."] }, { strategy: "rewoo" });
    expect(result.modelCalls[0]?.outputCut).toEqual({ at: MAX_OUTPUT_CHARS, of: plan.length });
    expect(result.plan?.steps.map((step) => step.tool)).toEqual(["get_me"]);
    expect(result.toolCalls).toHaveLength(1);
  });

  it("128 KB of ReAct stars is cut and read as no action", async () => {
    const stars = "**".repeat(64 * 1024);
    const result = await run(
      { react: [stars, "Final Answer: nothing to do"] },
      { strategy: "react", limits: { reactMaxIterations: 2 } },
    );
    expect(result.modelCalls[0]?.outputCut).toEqual({ at: MAX_OUTPUT_CHARS, of: stars.length });
    expect(result.toolCalls).toEqual([]);
  });

  it("native arguments nested too deep are refused with a reason, and the call made with none", async () => {
    let deep: Record<string, unknown> = {};
    for (let level = 0; level < 5000; level++) deep = { a: deep };
    const result = await run(
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
    const result = await run({ planner: ["#E1 = get_me()"], solver: ["octocat"] }, { strategy: "rewoo" });
    expect(result.modelCalls[0]?.output).toBe("#E1 = get_me()");
    expect(result.modelCalls[0]).not.toHaveProperty("outputCut");
  });
});

describe("nesting limits of the readers", () => {
  it("loose JSON: strict or repaired, a value deeper than 32 levels is a failure with a reason", () => {
    expect(parseLooseJson(`${"[".repeat(33)}${"]".repeat(33)}`)).toEqual({
      ok: false,
      error: "nested deeper than 32 levels",
    });
    expect(parseLooseJson(`${"[".repeat(33)}1`)).toEqual({ ok: false, error: "nested deeper than 32 levels" });
    expect(parseLooseJson(`${"[".repeat(32)}${"]".repeat(32)}`)).toMatchObject({ ok: true, repaired: false });
  });

  it("loose JSON: a broken text past the repair cap is not repaired", () => {
    const broken = `{'a': '${"x".repeat(9000)}'}`;
    expect(parseLooseJson(broken)).toMatchObject({ ok: false, error: expect.stringContaining("too long to repair") });
    expect(parseLooseJson(`{'a': 'x'}`)).toEqual({ ok: true, value: { a: "x" }, repaired: true });
  });

  it("call syntax: a value nested past the limit becomes null with a problem, the rest of the call is read", () => {
    const [step] = parsePlan(
      `#E1 = list_issues(owner=${"[".repeat(40)}1${"]".repeat(40)}, repo="webapp")`,
      SAMPLE_TOOLS,
    ).steps;
    expect(step?.args.repo).toBe("webapp");
    expect(JSON.stringify(step?.args.owner)).not.toContain("1");
  });
});
