import { mockServerFactories } from "../../../mock-servers/index.ts";
import { ClientPool } from "../../mcp/pool.ts";
import type { Registry } from "../../mcp/registry.ts";
import { percentile } from "../stats/percentile.ts";

export interface McpPerfReport {
  /** Time to connect every registry server over stdio (spawn + handshake + tool listing), ms. */
  connectAllStdioMs: number;
  connectAllMemoryMs: number;
  servers: number;
  tools: number;
  calls: number;
  memoryP50Ms: number;
  memoryP95Ms: number;
  stdioP50Ms: number;
  stdioP95Ms: number;
}

export interface McpPerfOptions {
  calls: number;
  /** A cheap read-only tool with no required arguments. */
  tool: string;
  args: Record<string, unknown>;
}

/** Measures tool-call round trips (in-memory and stdio) and the time to connect all servers. */
export async function measureMcp(registry: Registry, options: McpPerfOptions): Promise<McpPerfReport> {
  const memory = await timed(() => ClientPool.open(registry, { transport: "memory", mocks: mockServerFactories }));
  const stdio = await timed(() => ClientPool.open(registry, { transport: "stdio" }));
  try {
    const memoryTimes = await roundTrips(memory.value, options);
    const stdioTimes = await roundTrips(stdio.value, options);
    return {
      connectAllStdioMs: stdio.ms,
      connectAllMemoryMs: memory.ms,
      servers: stdio.value.serverNames().length,
      tools: stdio.value.listTools().length,
      calls: options.calls,
      memoryP50Ms: percentile(memoryTimes, 50),
      memoryP95Ms: percentile(memoryTimes, 95),
      stdioP50Ms: percentile(stdioTimes, 50),
      stdioP95Ms: percentile(stdioTimes, 95),
    };
  } finally {
    await Promise.all([memory.value.close(), stdio.value.close()]);
  }
}

async function roundTrips(pool: ClientPool, options: McpPerfOptions): Promise<number[]> {
  const warmup = Math.min(200, options.calls);
  for (let i = 0; i < warmup; i++) await pool.callTool(options.tool, options.args);
  const times: number[] = [];
  for (let i = 0; i < options.calls; i++) {
    const start = performance.now();
    const result = await pool.callTool(options.tool, options.args);
    times.push(performance.now() - start);
    if (!result.ok) throw new Error(`perf call ${options.tool} failed: ${result.text}`);
  }
  return times;
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
}
