/**
 * One query through one model × configuration, exactly as the bench runs it (the resolved configuration,
 * the mock servers, the mock world's date), scored when it is a dataset item's. Shared by `agent` (the
 * CLI), the HTTP server's `POST /run` and the MCP server's `run_query`.
 */

import { mockServerFactories } from "../../../mock-servers/index.ts";
import { runAgent } from "../../agent/agent.ts";
import type { AgentEventListener } from "../../agent/events.ts";
import type { ConversationTurn } from "../../agent/history.ts";
import type { AgentResult } from "../../agent/types.ts";
import { agentConfigOf, type Configuration } from "../../config/configuration.ts";
import { loadModelsConfig, type ModelEntry, resolveConfiguration, resolveModel } from "../../config/models-yaml.ts";
import { InputError } from "../../errors.ts";
import { ClientPool } from "../../mcp/pool.ts";
import { loadRegistries, type Registry } from "../../mcp/registry.ts";
import { RestrictedToolHost } from "../../mcp/restricted-host.ts";
import { isSimulator, provenanceOf } from "../../models/decide-provenance.ts";
import { createProvider } from "../../models/factory.ts";
import type { Provenance } from "../../models/provenance.ts";
import { requestCacheAt } from "../../models/request-cache.ts";
import type { SimGoldItem } from "../../models/sim/gold.ts";
import type { ToolHost } from "../../tool-protocol/types.ts";
import { closeItems } from "../dataset/close-items.ts";
import { loadAll, resolveDatasetFiles } from "../dataset/load.ts";
import { suiteOf } from "../dataset/suite.ts";
import type { ConversationItem, DatasetItem } from "../dataset/types.ts";
import { scoreItem } from "../scoring/score-item.ts";
import type { ItemScore } from "../scoring/score-types.ts";
import { DryRunToolHost, dryRunItem } from "./dry-run.ts";
import { runStateChecks } from "./environment.ts";
import { ModelOutageWatch } from "./model-outage.ts";
import { contextOf, withInjectedFiles, withRequestAgents, withSuiteDefaults } from "./resolve-request.ts";
import { sessionServers } from "./session.ts";
import { ToolCallBudget } from "./tool-budget.ts";

/** `itemId` names no dataset item. */
export class UnknownItemError extends InputError {}

/** `allowedTools` names a tool no connected server has. */
export class UnknownToolError extends InputError {}

/** What ended a run early: its tool-call budget, or its time limit. */
export type RunLimit = "max_tool_calls" | "timeout_s";

export interface AgentQueryOptions {
  /** The query, or (with `itemId`) undefined to take the item's. */
  query?: string;
  itemId?: string;
  model: string;
  configName: string;
  seed: number;
  transport: "stdio" | "memory";
  dataset?: readonly string[];
  modelsFile?: string;
  /** Registry files of the servers (merged; default: the mock servers'). */
  registries?: readonly string[];
  /** The servers themselves (an agent file's), instead of registry files. */
  registry?: Registry;
  /** Write tools answer with previews (dry-run.ts); a dataset item's end state is then not scored. */
  dryRun?: boolean;
  timeoutS?: number;
  /** An agent definition file: the configuration is the one it makes (`configName` is then not read). */
  agent?: string;
  /** Files injected into the definition's prompt (`--files`). */
  files?: readonly string[];
  /** The request cache's folder (real models only); none: every request goes to the server. */
  cacheDir?: string;
  signal?: AbortSignal;
  /** The agent's stage events as they happen. */
  onEvent?: AgentEventListener;
  /**
   * A conversation's earlier turns: the query is its next turn. A conversation turn is never a dataset
   * item's (not scored, every server's tools); the simulator answers it from the conversation datasets.
   */
  history?: readonly ConversationTurn[];
  /** Only these of the connected tools are shown and callable; a name no server has is an UnknownToolError. */
  allowedTools?: readonly string[];
  /** Tool calls past this many are refused (tool-budget.ts). */
  maxToolCalls?: number;
  /** Facts for the planner beside the mock world's date (a conversation's system messages). */
  context?: string;
  /**
   * The simulator's gold of a dataset conversation's turns (bench/conversation/gold.ts `conversationGold`,
   * given by the caller: bench/conversation builds on this folder); without it the simulator knows none.
   */
  turnGold?: (conversation: ConversationItem) => SimGoldItem[];
  /**
   * Servers kept by the caller (a live conversation's session, serve/conversation-sessions.ts): the run
   * uses them, state and all, and leaves them open. Without them the run opens fresh ones and closes them.
   */
  servers?: ClientPool;
}

export interface AgentQueryOutcome {
  result: AgentResult;
  entry: ModelEntry;
  /** The dataset item whose query this is, when it is one. */
  item?: DatasetItem;
  /** The bench's score of the run (dataset items only). */
  score?: ItemScore;
  /** The simulator given a query of no dataset item: the items whose queries are closest to it. */
  closeItems?: DatasetItem[];
  /** Whose answers these are: the simulator's, the stand-in server's (it says so when asked), or a live model's. */
  provenance: Provenance;
  /** The limit that ended the run early, when one did. */
  stoppedBy?: RunLimit;
}

/** One query through one model × configuration against fresh mock servers; closes them before returning. */
export async function runAgentQuery(options: AgentQueryOptions): Promise<AgentQueryOutcome> {
  const paths = options.dataset && options.dataset.length > 0 ? options.dataset : undefined;
  const suite = suiteOf(resolveDatasetFiles(paths));
  const { models, agentNames } = withRequestAgents(withSuiteDefaults(loadModelsConfig(options.modelsFile), suite), {
    agents: options.agent === undefined ? [] : [options.agent],
  });
  const entry = resolveModel(models, options.model);
  const configName = agentNames[0] ?? options.configName;
  const resolved = resolveConfiguration(models, {
    model: entry,
    configName,
    ...(options.timeoutS === undefined ? {} : { cli: { limits: { totalTimeoutMs: options.timeoutS * 1000 } } }),
  });
  const config = withInjectedFiles({ [entry.name]: { [configName]: resolved } }, options.files)[entry.name]![
    configName
  ]!;
  const dataset = loadAll(paths);
  const items = dataset.items.map((loaded) => loaded.item);
  const conversation = options.history !== undefined;
  const item = conversation ? undefined : findItem(items, options);
  const query = item?.query ?? (options.query ?? "").trim();
  const outage = new ModelOutageWatch();
  // the simulator answers from the gold labels: an item's query gets its item's, any other query its fallback
  const cache = options.cacheDir && !isSimulator(entry) ? requestCacheAt(options.cacheDir) : undefined;
  const turnGold = options.turnGold;
  const gold = turnGold
    ? [...items, ...dataset.conversations.flatMap((loaded) => turnGold(loaded.conversation))]
    : items;
  const model = outage.watch(createProvider(entry, { gold, seed: options.seed, cache }));

  const pool = options.servers ?? (await openQueryServers(options));
  try {
    const host = allowedTools(pool, itemTools(pool, item, config, options.seed), options.allowedTools);
    const budget = options.maxToolCalls === undefined ? undefined : new ToolCallBudget(host, options.maxToolCalls);
    const tools = budget ?? host;
    const result = await runAgent(query, {
      config: agentConfigOf(config),
      model,
      tools: options.dryRun ? new DryRunToolHost(tools) : tools,
      ...joinedContext(contextOf(suite).context, options.context),
      signal: options.signal,
      ...(options.history ? { history: options.history } : {}),
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    });
    if (outage.outage) throw outage.outage;
    const stopped = stoppedBy(result, budget, options.signal);
    // read once by the provider before its first call: asking again costs nothing
    const facts = isSimulator(entry) ? undefined : await model.describe?.().catch(() => undefined);
    const provenance = provenanceOf(entry, facts ? { facts } : {});
    const notes = { provenance, ...(stopped ? { stoppedBy: stopped } : {}) };
    if (!item) {
      return {
        result,
        entry,
        ...notes,
        ...(isSimulator(entry) && !conversation ? { closeItems: closeItems(items, query) } : {}),
      };
    }
    const stateChecks = await runStateChecks(pool, item.state ?? []);
    const allowed = item.tools;
    const shown = allowed ? pool.listTools().filter((tool) => allowed.includes(tool.name)) : pool.listTools();
    const scored = options.dryRun ? dryRunItem(item) : item;
    return {
      result,
      entry,
      item,
      ...notes,
      score: scoreItem({ item: scored, trace: result, stateChecks, tools: shown }),
    };
  } finally {
    if (!options.servers) await pool.close();
  }
}

/** The servers a query runs on, fresh: the registry's (the suite's subset when the dataset names one). */
export function openQueryServers(
  options: Pick<AgentQueryOptions, "dataset" | "registry" | "registries" | "transport">,
): Promise<ClientPool> {
  const paths = options.dataset && options.dataset.length > 0 ? options.dataset : undefined;
  const suite = suiteOf(resolveDatasetFiles(paths));
  return ClientPool.open(options.registry ?? loadRegistries(options.registries), {
    transport: options.transport,
    mocks: mockServerFactories,
    ...(suite?.servers ? { servers: suite.servers } : {}),
  });
}

/** A dataset item's query runs with its session's servers, as in the bench; a free query with every server. */
function itemTools(pool: ClientPool, item: DatasetItem | undefined, config: Configuration, seed: number): ToolHost {
  if (!item) return pool;
  if (item.tools) return RestrictedToolHost.ofTools(pool, item.tools);
  const servers = sessionServers({ item, exposure: config.exposure, seed, registry: pool.serverNames() });
  return RestrictedToolHost.ofServers(pool, servers);
}

/** The tools a request allows, checked against the connected ones. */
function allowedTools(pool: ClientPool, host: ToolHost, names: readonly string[] | undefined): ToolHost {
  if (names === undefined) return host;
  const connected = new Set(pool.listTools().map((tool) => tool.name));
  const unknown = names.find((name) => !connected.has(name));
  if (unknown !== undefined) {
    throw new UnknownToolError("UNKNOWN_TOOL", `no connected server has a tool "${unknown}"`, {
      context: { tool: unknown },
    });
  }
  return RestrictedToolHost.ofTools(host, names);
}

function joinedContext(...parts: (string | undefined)[]): { context?: string } {
  const given = parts.filter((part): part is string => part !== undefined && part !== "");
  return given.length === 0 ? {} : { context: given.join("\n") };
}

/** The limit that ended the run: a refused call, or the time limit (not the caller's own abort). */
function stoppedBy(result: AgentResult, budget: ToolCallBudget | undefined, signal: AbortSignal | undefined) {
  if (result.error?.code === "RUN_ABORTED" && !signal?.aborted) return "timeout_s" as const;
  return budget?.reached ? ("max_tool_calls" as const) : undefined;
}

function findItem(items: readonly DatasetItem[], options: AgentQueryOptions): DatasetItem | undefined {
  if (options.itemId !== undefined) {
    const item = items.find((candidate) => candidate.id === options.itemId);
    if (!item) {
      throw new UnknownItemError("UNKNOWN_ITEM", `no dataset item has the id "${options.itemId}"`, {
        context: { itemId: options.itemId },
      });
    }
    return item;
  }
  const query = options.query?.trim();
  return items.find((candidate) => candidate.query === query);
}
