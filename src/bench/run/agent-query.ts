/**
 * One query through one model × configuration, exactly as the bench runs it (the resolved configuration,
 * the mock servers, the mock world's date), scored when it is a dataset item's. Shared by `agent` (the
 * CLI), the HTTP server's `POST /run` and the MCP server's `run_query`.
 */

import { mockServerFactories } from "../../../mock-servers/index.ts";
import { type AgentConfig, type AgentEventListener, type AgentResult, runAgent } from "../../agent/index.ts";
import { loadModelsConfig, type ModelEntry, resolveConfiguration, resolveModel } from "../../config/models-yaml.ts";
import { InputError } from "../../errors.ts";
import { ClientPool } from "../../mcp/pool.ts";
import { loadRegistries, type Registry } from "../../mcp/registry.ts";
import { RestrictedToolHost } from "../../mcp/restricted-host.ts";
import type { ToolHost } from "../../mcp/types.ts";
import { createProvider } from "../../models/factory.ts";
import { isSimulator } from "../../models/provenance.ts";
import { requestCacheAt } from "../../models/request-cache.ts";
import { closeItems } from "../dataset/close-items.ts";
import { loadDataset, resolveDatasetFiles } from "../dataset/load.ts";
import { suiteOf } from "../dataset/suite.ts";
import type { DatasetItem } from "../dataset/types.ts";
import { type ItemScore, scoreItem } from "../scoring/index.ts";
import { DryRunToolHost, dryRunItem } from "./dry-run.ts";
import { runStateChecks } from "./environment.ts";
import { ModelOutageWatch } from "./model-outage.ts";
import { contextOf, withInjectedFiles, withRequestAgents, withSuiteDefaults } from "./resolve-request.ts";
import { sessionServers } from "./session.ts";

/** `itemId` names no dataset item. */
export class UnknownItemError extends InputError {}

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
  /** The model's server is the stand-in (the simulator behind Ollama's or the OpenAI API): its answers are simulated. */
  standin?: true;
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
  const items = loadDataset(paths).map((loaded) => loaded.item);
  const item = findItem(items, options);
  const query = item?.query ?? (options.query ?? "").trim();
  const outage = new ModelOutageWatch();
  // the simulator answers from the gold labels: an item's query gets its item's, any other query its fallback
  const cache = options.cacheDir && !isSimulator(entry) ? requestCacheAt(options.cacheDir) : undefined;
  const model = outage.watch(createProvider(entry, { gold: items, seed: options.seed, cache }));

  const pool = await ClientPool.open(options.registry ?? loadRegistries(options.registries), {
    transport: options.transport,
    mocks: mockServerFactories,
    ...(suite?.servers ? { servers: suite.servers } : {}),
  });
  try {
    const host = itemTools(pool, item, config, options.seed);
    const result = await runAgent(query, {
      config,
      model,
      tools: options.dryRun ? new DryRunToolHost(host) : host,
      ...contextOf(suite),
      signal: options.signal,
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    });
    if (outage.outage) throw outage.outage;
    // read once by the provider before its first call: asking again costs nothing
    const facts = isSimulator(entry) ? undefined : await model.describe?.().catch(() => undefined);
    const standin = facts?.standin ? ({ standin: true } as const) : {};
    if (!item) {
      return {
        result,
        entry,
        ...standin,
        ...(isSimulator(entry) ? { closeItems: closeItems(items, query) } : {}),
      };
    }
    const stateChecks = await runStateChecks(pool, item.state ?? []);
    const allowed = item.tools;
    const tools = allowed ? pool.listTools().filter((tool) => allowed.includes(tool.name)) : pool.listTools();
    const scored = options.dryRun ? dryRunItem(item) : item;
    return { result, entry, item, ...standin, score: scoreItem({ item: scored, trace: result, stateChecks, tools }) };
  } finally {
    await pool.close();
  }
}

/** A dataset item's query runs with its session's servers, as in the bench; a free query with every server. */
function itemTools(pool: ClientPool, item: DatasetItem | undefined, config: AgentConfig, seed: number): ToolHost {
  if (!item) return pool;
  if (item.tools) return RestrictedToolHost.ofTools(pool, item.tools);
  const servers = sessionServers({ item, exposure: config.exposure, seed, registry: pool.serverNames() });
  return RestrictedToolHost.ofServers(pool, servers);
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
