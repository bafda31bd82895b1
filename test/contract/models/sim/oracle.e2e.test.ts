/**
 * End to end: sim:oracle through the whole agent (runAgent) against in-process MCP servers, every
 * category × every strategy and the pipeline's switches — the tool calls are the gold calls and the
 * answer passes the answer check; where the filter hid a gold tool, no call at all. The noisy profiles run the same grid and must never break the agent.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryToolHost } from "../../../../mock-servers/kit/memory-host.ts";
import { chatSpec, type HubState, hubSpec } from "../../../../mock-servers/kit/sample-servers.ts";
import { runAgent } from "../../../../src/agent/agent.ts";
import type { AgentConfigInput, AgentResult } from "../../../../src/agent/types.ts";
import { goldCalls, type SimGoldItem } from "../../../../src/models/sim/gold.ts";
import { createSimProvider } from "../../../../src/models/sim/provider.ts";
import { passesAnswerCheck, TEST_ITEMS } from "../../../../src/models/sim/testing/items.ts";

const CONFIGS: [string, AgentConfigInput][] = [
  ["auto", { strategy: "auto" }],
  ["rewoo", { strategy: "rewoo" }],
  ["react", { strategy: "react" }],
  ["native", { strategy: "native" }],
  ["jsonl", { strategy: "jsonl" }],
  [
    "auto, filter 1, no skills/rescue/fallback",
    { strategy: "auto", filter: 1, skills: false, rescue: false, fallback: false },
  ],
  ["auto, no routing model, no write guard", { strategy: "auto", routingLlm: false, writeGuard: false }],
  ["rewoo, all tools, no fallback", { strategy: "rewoo", filter: "all", fallback: false }],
  ["react, filter 2, no skills", { strategy: "react", filter: 2, skills: false }],
];

let host: MemoryToolHost;
beforeAll(async () => {
  host = await MemoryToolHost.open([hubSpec, chatSpec]);
});
afterAll(async () => {
  await host.close();
});

async function run(profile: string, item: SimGoldItem, config: AgentConfigInput): Promise<AgentResult> {
  host.reset();
  const model = createSimProvider({ profile, seed: 3, gold: TEST_ITEMS });
  return runAgent(item.query, { model, tools: host, config });
}

const asCall = ({ tool, args }: { tool: string; args: Record<string, unknown> }) => JSON.stringify({ tool, args });

describe.each(CONFIGS)("sim:oracle, %s", (_name, config) => {
  it.each(TEST_ITEMS.map((item) => [item.id, item] as const))("%s: gold calls, passing answer", async (_id, item) => {
    const result = await run("oracle", item, config);
    expect(result.error).toBeUndefined();
    // a model cannot call a tool its prompt did not show, and does not start a task it cannot finish
    const shown = new Set(result.tools.filtered);
    if (!goldCalls(item).every((call) => shown.has(call.tool))) {
      expect(result.toolCalls).toEqual([]);
      return;
    }
    expect(result.toolCalls.every((call) => call.ok && !call.blocked)).toBe(true);
    const made = result.toolCalls.map(asCall);
    const gold = goldCalls(item).map(asCall);
    if (item.order === "sequence") expect(made).toEqual(gold);
    else expect([...made].sort()).toEqual([...gold].sort());
    expect(passesAnswerCheck(item, result.answer), result.answer).toBe(true);
    if (item.id === "sim-write") {
      const titled = host
        .state<HubState>("github")
        .repos["acme/webapp"]?.filter((issue) => issue.title === "Crash on save");
      expect(titled).toHaveLength(1);
    }
  });
});

describe.each(["slm-3b", "chaos"])("sim:%s never breaks the agent", (profile) => {
  it.each(CONFIGS)("%s", async (_name, config) => {
    for (const item of TEST_ITEMS) {
      const result = await run(profile, item, config);
      expect(result.modelCalls.length).toBeGreaterThan(0);
      expect(result.modelCalls.every((call) => call.error === undefined)).toBe(true);
      if (result.error) expect(result.error.code).toBe("MAX_ITERATIONS");
    }
  });
});
