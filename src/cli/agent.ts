/**
 * `agent "<query>" --model M [--config C]`: one query through the pipeline, exactly as the bench runs
 * it (the resolved configuration, the mock servers, the mock world's date), with its trace printed —
 * the debugging loop behind every benchmark number. A dataset item's query is also scored as the bench
 * scores it; `--json` prints the whole AgentResult.
 */
import type { Command } from "commander";
import { mockServerFactories } from "../../mock-servers/index.ts";
import { type AgentConfig, type AgentResult, runAgent } from "../agent/index.ts";
import { loadDataset } from "../bench/dataset/load.ts";
import type { DatasetItem } from "../bench/dataset/types.ts";
import { MOCK_WORLD_CONTEXT } from "../bench/dataset/world-clock.ts";
import { RestrictedToolHost, runStateChecks } from "../bench/run/environment.ts";
import { ModelOutageWatch } from "../bench/run/model-outage.ts";
import { sessionServers } from "../bench/run/session.ts";
import { type ItemScore, scoreItem } from "../bench/scoring/index.ts";
import { loadModelsConfig, type ModelEntry, resolveConfiguration, resolveModel } from "../config/models-yaml.ts";
import { OnsetlabError } from "../errors.ts";
import { ClientPool } from "../mcp/pool.ts";
import { loadRegistry } from "../mcp/registry.ts";
import type { ToolHost } from "../mcp/types.ts";
import { createProvider } from "../models/factory.ts";
import { defaultCacheDir, requestCacheAt } from "../models/request-cache.ts";
import { parseSeed } from "./bench.ts";
import { closeItems } from "./close-items.ts";
import { FlagError, parsePositiveInt, parseTransport, type TransportFlag } from "./flags.ts";
import { formatTrace } from "./trace-print.ts";

/** The query ran, but the pipeline ended in error (a model failure, the time limit): exit 1. */
export class AgentRunError extends OnsetlabError {}

export const DEFAULT_AGENT_CONFIG_NAME = "onsetlab";

export interface AgentQueryOptions {
  /** The query, or (with `itemId`) undefined to take the item's. */
  query?: string;
  itemId?: string;
  model: string;
  configName: string;
  seed: number;
  transport: TransportFlag;
  dataset?: readonly string[];
  modelsFile?: string;
  timeoutS?: number;
  /** The request cache's folder (real models only); none: every request goes to the server. */
  cacheDir?: string;
  signal?: AbortSignal;
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
}

interface AgentFlags {
  model?: string;
  config: string;
  item?: string;
  seed: string;
  transport: string;
  dataset?: string[];
  models?: string;
  timeout?: string;
  verbose?: boolean;
  json?: boolean;
  /** `--no-cache` makes it false. */
  cache: boolean;
}

export function registerAgentCommand(program: Command): void {
  program
    .command("agent")
    .description("run one query through the pipeline against the mock servers and print its trace")
    .argument("[query]", 'the request, e.g. "List open issues in acme/webapp" (or give --item)')
    .option("--model <name>", "a models.yaml entry, sim:<profile>, or any Ollama model")
    .option("--config <name>", "a configuration from models.yaml", DEFAULT_AGENT_CONFIG_NAME)
    .option("--item <id>", "run a dataset item's query (e.g. gh-014) instead of giving one")
    .option("--seed <n>", "seed of the simulator (a bench run's first repeat uses the same)", "1")
    .option("--transport <kind>", "stdio | memory", "memory")
    .option("--dataset <paths...>", "dataset files the simulator and the scorer read (default: datasets/*.jsonl)")
    .option("--models <file>", "a models.yaml other than the repository's")
    .option("--timeout <seconds>", "time limit of the query")
    .option("--verbose", "also print every model call's prompt and raw output")
    .option("--json", "print the whole AgentResult as JSON")
    .option("--no-cache", "send every model request to the server (default: answer repeats from the request cache)")
    .action(async (query: string | undefined, flags: AgentFlags) => {
      if (!flags.model) {
        throw new FlagError(
          "BAD_FLAG",
          "--model is required, e.g. --model sim:slm-3b (no weights needed) or --model qwen2.5:3b",
        );
      }
      if ((query === undefined || query.trim() === "") === (flags.item === undefined)) {
        throw new FlagError("BAD_FLAG", 'give a query ("…") or --item ID, exactly one of them');
      }
      const controller = new AbortController();
      const stop = () => controller.abort(new Error("interrupted"));
      process.once("SIGINT", stop);
      let outcome: AgentQueryOutcome;
      try {
        outcome = await runAgentQuery({
          ...(query === undefined ? {} : { query }),
          ...(flags.item === undefined ? {} : { itemId: flags.item }),
          model: flags.model,
          configName: flags.config,
          seed: parseSeed(flags.seed),
          transport: parseTransport(flags.transport),
          ...(flags.dataset ? { dataset: flags.dataset } : {}),
          ...(flags.models ? { modelsFile: flags.models } : {}),
          ...(flags.timeout ? { timeoutS: parsePositiveInt("--timeout", flags.timeout) } : {}),
          ...(flags.cache ? { cacheDir: defaultCacheDir() } : {}),
          signal: controller.signal,
        });
      } finally {
        process.off("SIGINT", stop);
      }
      const { result, entry, item, score } = outcome;
      if (outcome.closeItems) process.stderr.write(simulatorHint(entry.name, outcome.closeItems));
      const simulated = entry.provider === "sim";
      process.stdout.write(
        flags.json
          ? `${JSON.stringify(result)}\n`
          : formatTrace(result, {
              model: entry.name,
              modelNote: simulated ? simulationNote(item) : undefined,
              configName: flags.config,
              simulated,
              verbose: flags.verbose,
              score,
            }),
      );
      if (result.error) {
        throw new AgentRunError(
          "AGENT_RUN_ERROR",
          `the query ended in error in ${result.error.stage}: ${result.error.message}`,
          {
            context: { ...result.error },
          },
        );
      }
    });
}

/** One query through one model × configuration against fresh mock servers; closes them before returning. */
export async function runAgentQuery(options: AgentQueryOptions): Promise<AgentQueryOutcome> {
  const models = loadModelsConfig(options.modelsFile);
  const entry = resolveModel(models, options.model);
  const config = resolveConfiguration(models, {
    model: entry,
    configName: options.configName,
    ...(options.timeoutS === undefined ? {} : { cli: { limits: { totalTimeoutMs: options.timeoutS * 1000 } } }),
  });
  const items = loadDataset(options.dataset && options.dataset.length > 0 ? options.dataset : undefined).map(
    (loaded) => loaded.item,
  );
  const item = findItem(items, options);
  const query = item?.query ?? options.query!.trim();
  const outage = new ModelOutageWatch();
  // the simulator answers from the gold labels: an item's query gets its item's, any other query its fallback
  const cache = options.cacheDir && entry.provider !== "sim" ? requestCacheAt(options.cacheDir) : undefined;
  const model = outage.watch(createProvider(entry, { gold: items, seed: options.seed, cache }));

  const pool = await ClientPool.open(loadRegistry(), { transport: options.transport, inProcess: mockServerFactories });
  try {
    const result = await runAgent(query, {
      config,
      model,
      tools: itemTools(pool, item, config, options.seed),
      context: MOCK_WORLD_CONTEXT,
      signal: options.signal,
    });
    if (outage.outage) throw outage.outage;
    if (!item) return { result, entry, ...(entry.provider === "sim" ? { closeItems: closeItems(items, query) } : {}) };
    const stateChecks = await runStateChecks(pool, item.state ?? []);
    const allowed = item.tools;
    const tools = allowed ? pool.listTools().filter((tool) => allowed.includes(tool.name)) : pool.listTools();
    return { result, entry, item, score: scoreItem({ item, trace: result, stateChecks, tools }) };
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
    if (!item) throw new FlagError("BAD_FLAG", `--item ${options.itemId}: no dataset item has this id`);
    return item;
  }
  const query = options.query?.trim();
  return items.find((candidate) => candidate.query === query);
}

function simulationNote(item: DatasetItem | undefined): string {
  return item
    ? `simulated: answers from the gold labels of dataset item ${item.id}`
    : "simulated: the simulator answers dataset queries only, and this is no dataset item's";
}

/** Why a simulated answer to a free query says nothing useful, and what to run instead. */
function simulatorHint(model: string, close: readonly DatasetItem[]): string {
  const lines = [
    `note: ${model} answers dataset queries only (from their gold labels); this query is no dataset item's.`,
    ...(close.length > 0
      ? ["Closest dataset queries (by shared words):", ...close.map((item) => `  --item ${item.id}  ${item.query}`)]
      : []),
    "Run one with --item ID, or ask a real model (e.g. --model qwen2.5:3b).",
  ];
  return `${lines.join("\n")}\n`;
}
