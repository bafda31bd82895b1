/**
 * The dataset through the real pipeline, for tests that compare providers (or a provider behind a proxy)
 * with the simulator: every item under every strategy, and what of a result decides its score.
 */

import { mockServerFactories } from "../../mock-servers/index.ts";
import { runAgent } from "../../src/agent/agent.ts";
import type { AgentResult, Strategy } from "../../src/agent/types.ts";
import { ClientPool } from "../../src/mcp/pool.ts";
import { loadRegistry } from "../../src/mcp/registry.ts";
import type { ModelProvider } from "../../src/models/types.ts";

/** The github mock server, in process. */
export function openGithubPool(): Promise<ClientPool> {
  return ClientPool.open(loadRegistry(), { transport: "memory", mocks: mockServerFactories, servers: ["github"] });
}

/** Every item under every strategy, one at a time, from a fresh server state. */
export async function runPipeline(
  pool: ClientPool,
  model: ModelProvider,
  items: readonly { query: string }[],
  strategies: readonly Strategy[],
): Promise<AgentResult[]> {
  const results: AgentResult[] = [];
  for (const strategy of strategies) {
    for (const item of items) {
      await pool.resetAll();
      results.push(await runAgent(item.query, { model, tools: pool, config: { strategy } }));
    }
  }
  return results;
}

/** What decides a score: the route, plan, every model output, every tool call and its outcome, the answer. */
export function outcome(result: AgentResult) {
  return {
    path: result.path,
    route: result.route?.route,
    plan: result.plan?.raw,
    outputs: result.modelCalls.map((call) => ({
      output: call.output,
      calls: call.toolCalls?.map(({ name, arguments: args }) => ({ name, args })),
      error: call.error,
    })),
    tools: result.toolCalls.map((call) => ({
      tool: call.tool,
      args: call.args,
      ok: call.ok,
      text: call.text,
    })),
    answer: result.answer,
    error: result.error?.code,
  };
}
