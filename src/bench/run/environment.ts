/**
 * The tool side of a run: the servers an item's query runs against, reset between queries, and the
 * state checks after it. Mock servers come as a set of client pools — one per concurrent query, since
 * mock state is per server — each connected once for the whole run.
 */
import { mockServerFactories } from "../../../mock-servers/index.ts";
import type { FaultConfig } from "../../mcp/faults.ts";
import { ClientPool } from "../../mcp/pool.ts";
import type { Registry } from "../../mcp/registry.ts";
import type { CallOptions, ToolCallResult, ToolDefinition, ToolHost } from "../../mcp/types.ts";
import type { DatasetItem, StateCheckSpec } from "../dataset/types.ts";

/** A state check as the server answered it (`negate` is the scorer's business). */
export interface StateOutcome {
  spec: StateCheckSpec;
  pass: boolean;
  detail: string;
}

/** One query's lease on a set of servers. */
export interface ItemSession {
  tools: ToolHost;
  runStateChecks(): Promise<StateOutcome[]>;
  release(): Promise<void>;
}

export interface ToolEnvironment {
  /** The tools a query may see (for scoring: schemas and annotations); without an item, all of them. */
  definitions(item?: DatasetItem): readonly ToolDefinition[];
  open(item: DatasetItem): Promise<ItemSession>;
  close(): Promise<void>;
}

/** Only the tools an item allows (BFCL-style items carry their own function set). */
export class RestrictedToolHost implements ToolHost {
  private readonly allowed: ReadonlySet<string>;

  constructor(
    private readonly inner: ToolHost,
    allowed: readonly string[],
  ) {
    this.allowed = new Set(allowed);
  }

  listTools(): readonly ToolDefinition[] {
    return this.inner.listTools().filter((tool) => this.allowed.has(tool.name));
  }

  async callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<ToolCallResult> {
    if (this.allowed.has(name)) return this.inner.callTool(name, args, options);
    const message = `Unknown tool "${name}"`;
    return { ok: false, text: message, error: { kind: "unknown_tool", message }, attempts: [], durationMs: 0 };
  }
}

export interface MockEnvironmentOptions {
  registry: Registry;
  transport: "stdio" | "memory";
  /** Pools to open: the run's concurrency. */
  pools: number;
  /** Fault injection on every mock server. */
  faults?: FaultConfig;
}

/** The registry's servers, `pools` times over; a query leases a pool, and its touched servers are reset. */
export class MockEnvironment implements ToolEnvironment {
  private readonly idle: ClientPool[];
  private readonly waiting: ((pool: ClientPool) => void)[] = [];

  private constructor(private readonly pools: ClientPool[]) {
    this.idle = [...pools];
  }

  static async open(options: MockEnvironmentOptions): Promise<MockEnvironment> {
    const pools: ClientPool[] = [];
    try {
      // one at a time: N × 8 stdio servers starting at once would only contend for the same two cores
      for (let index = 0; index < options.pools; index++) {
        pools.push(
          await ClientPool.open(options.registry, {
            transport: options.transport,
            inProcess: mockServerFactories,
            ...(options.faults ? { faults: options.faults } : {}),
          }),
        );
      }
    } catch (error) {
      await Promise.all(pools.map((pool) => pool.close()));
      throw error;
    }
    return new MockEnvironment(pools);
  }

  definitions(item?: DatasetItem): readonly ToolDefinition[] {
    const all = this.pools[0]!.listTools();
    const allowed = item?.tools;
    return allowed ? all.filter((tool) => allowed.includes(tool.name)) : all;
  }

  async open(item: DatasetItem): Promise<ItemSession> {
    const pool = this.idle.pop() ?? (await new Promise<ClientPool>((resolve) => this.waiting.push(resolve)));
    await pool.resetTouched();
    return {
      tools: item.tools ? new RestrictedToolHost(pool, item.tools) : pool,
      runStateChecks: () => runStateChecks(pool, item.state ?? []),
      release: async () => {
        const next = this.waiting.shift();
        if (next) next(pool);
        else this.idle.push(pool);
      },
    };
  }

  async close(): Promise<void> {
    await Promise.all(this.pools.map((pool) => pool.close()));
  }
}

/** An item's end-state checks against the servers of one pool (also used by `pnpm agent`). */
export async function runStateChecks(pool: ClientPool, specs: readonly StateCheckSpec[]): Promise<StateOutcome[]> {
  const outcomes: StateOutcome[] = [];
  for (const spec of specs) {
    const { pass, detail } = await pool.check(spec.server, spec.expect, spec.args);
    outcomes.push({ spec, pass, detail });
  }
  return outcomes;
}
