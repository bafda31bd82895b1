/**
 * The tool side of a run: the servers an item's query runs against, reset between queries, and the
 * state checks after it. Mock servers come as a set of client pools — one per concurrent query, since
 * mock state is per server — each connected once for the whole run; a query sees its session's servers
 * through a view of the pool (session.ts), never a connection of its own.
 */
import { mockServerFactories } from "../../../mock-servers/index.ts";
import { ClientPool, type ResetsRun } from "../../mcp/pool.ts";
import type { Registry } from "../../mcp/registry.ts";
import { RestrictedToolHost } from "../../mcp/restricted-host.ts";
import { cached } from "../../memo.ts";
import type { FaultConfig } from "../../tool-protocol/faults.ts";
import type { ToolDefinition, ToolHost } from "../../tool-protocol/types.ts";
import type { Exposure } from "../dataset/exposure.ts";
import { isToolCallCheck, runToolCallCheck, type StateOutcome } from "../dataset/state-checks.ts";

export type { StateOutcome } from "../dataset/state-checks.ts";

import type { DatasetItem, StateCheckSpec } from "../dataset/types.ts";
import { sessionServers } from "./session.ts";

/** One query's lease on a set of servers. */
export interface ItemSession {
  tools: ToolHost;
  /** The servers connected for the query (its session). */
  servers: readonly string[];
  /** The resets of servers other than the mocks that ran before the query (servers not named were still clean). */
  resets?: ResetsRun;
  /** The item's state checks, or (a conversation's turn) the given ones, on the session's servers as they are now. */
  runStateChecks(specs?: readonly StateCheckSpec[]): Promise<StateOutcome[]>;
  release(): Promise<void>;
}

export interface ToolEnvironment {
  /** The tools a query may see (for scoring: schemas and annotations); without an item, all of them. */
  definitions(item?: DatasetItem): readonly ToolDefinition[];
  open(item: DatasetItem, exposure: Exposure): Promise<ItemSession>;
  close(): Promise<void>;
}

export interface MockEnvironmentOptions {
  registry: Registry;
  transport: "stdio" | "memory";
  /** Pools to open: the run's concurrency. */
  pools: number;
  /** The run seed: it picks each item's distractor servers (session.ts). */
  seed: number;
  /** Fault injection on every mock server. */
  faults?: FaultConfig;
  /** Only these servers of the registry (a suite's); default: all. */
  servers?: string[];
}

/** The registry's servers, `pools` times over; a query leases a pool, and its touched servers are reset. */
export class MockEnvironment implements ToolEnvironment {
  private readonly idle: ClientPool[];
  private readonly waiting: ((pool: ClientPool) => void)[] = [];
  /** Per pool, one view per set of servers: items of one session share it, and the agent's caches with it. */
  private readonly views = new Map<ClientPool, Map<string, RestrictedToolHost>>();

  private constructor(
    private readonly pools: ClientPool[],
    private readonly seed: number,
  ) {
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
            mocks: mockServerFactories,
            ...(options.servers ? { servers: options.servers } : {}),
            ...(options.faults ? { faults: options.faults } : {}),
          }),
        );
      }
    } catch (error) {
      await Promise.all(pools.map((pool) => pool.close()));
      throw error;
    }
    return new MockEnvironment(pools, options.seed);
  }

  definitions(item?: DatasetItem): readonly ToolDefinition[] {
    const all = this.pools[0]!.listTools();
    const allowed = item?.tools;
    return allowed ? all.filter((tool) => allowed.includes(tool.name)) : all;
  }

  async open(item: DatasetItem, exposure: Exposure): Promise<ItemSession> {
    const pool = this.idle.pop() ?? (await new Promise<ClientPool>((resolve) => this.waiting.push(resolve)));
    const resets = await pool.resetTouched().catch(async (error: unknown) => {
      // the pool goes back for the tasks after this one (a failed reset is this task's run error)
      this.give(pool);
      throw error;
    });
    const servers = sessionServers({ item, exposure, seed: this.seed, registry: pool.serverNames() });
    return {
      tools: item.tools ? RestrictedToolHost.ofTools(pool, item.tools) : this.view(pool, servers),
      servers,
      ...realResets(resets),
      runStateChecks: (specs = item.state ?? []) => runStateChecks(pool, specs),
      release: async () => this.give(pool),
    };
  }

  private give(pool: ClientPool): void {
    const next = this.waiting.shift();
    if (next) next(pool);
    else this.idle.push(pool);
  }

  async close(): Promise<void> {
    await Promise.all(this.pools.map((pool) => pool.close()));
  }

  /** The pool itself when the session has all of its servers. */
  private view(pool: ClientPool, servers: readonly string[]): ToolHost {
    if (servers.length === pool.serverNames().length) return pool;
    const views = cached(this.views, pool, () => new Map<string, RestrictedToolHost>());
    return cached(views, servers.join(","), () => RestrictedToolHost.ofServers(pool, servers));
  }
}

/** The resets worth a record: a user's servers' (a mock's in-process reset is the harness's own business). */
function realResets(resets: ResetsRun): { resets?: ResetsRun } {
  const real = Object.entries(resets).filter(([, kind]) => kind !== "mock");
  return real.length > 0 ? { resets: Object.fromEntries(real) } : {};
}

/**
 * An item's end-state checks against the servers of one pool (also used by `pnpm agent`): a named check
 * through the mock's `__check`, a tool-call check by calling its read-only tool and matching the result.
 */
export async function runStateChecks(
  pool: Pick<ClientPool, "control"> & ToolHost,
  specs: readonly StateCheckSpec[],
): Promise<StateOutcome[]> {
  const outcomes: StateOutcome[] = [];
  for (const spec of specs) {
    const outcome = isToolCallCheck(spec)
      ? await runToolCallCheck(pool, spec)
      : await pool.control.check(spec.server, spec.expect, spec.args);
    outcomes.push({ spec, ...outcome });
  }
  return outcomes;
}
