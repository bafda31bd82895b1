/**
 * Runs one thread's share of a run's tasks: its own providers, servers and tracer, every finished task
 * turned into its records.jsonl line and its traces.jsonl lines right here, so the thread that writes
 * the files (the main one) only appends text. The same code runs in the main thread and in each worker
 * thread (threads.ts).
 */
import type { AgentConfig } from "../../agent/index.ts";
import { loadModelsConfig } from "../../config/models-yaml.ts";
import { loadRegistry } from "../../mcp/registry.ts";
import type { ModelProvider } from "../../models/types.ts";
import type { DatasetItem } from "../dataset/types.ts";
import { type ItemScore, scoreItem, ToolCatalog } from "../scoring/index.ts";
import type { BenchRequest, RunRecord } from "./bench.ts";
import { BfclEnvironment } from "./bfcl-environment.ts";
import { DryRunEnvironment, dryRunItem } from "./dry-run.ts";
import { MockEnvironment, type ToolEnvironment } from "./environment.ts";
import { executeTasks, type TaskFailure } from "./execute.ts";
import type { Task } from "./matrix.ts";
import type { ModelOutageWatch } from "./model-outage.ts";
import { providerCache, resolveEntries } from "./providers.ts";
import { type SpanParent, startQueryTracer } from "./spans.ts";
import { jsonLineBytes, lineBytes } from "./store.ts";

/** What a thread needs to run tasks of a run: plain data, so it can be posted to a worker thread. */
export interface ShareSpec {
  runId: string;
  request: BenchRequest;
  modelsFile?: string;
  resolved: Record<string, Record<string, AgentConfig>>;
  items: DatasetItem[];
  bfcl: boolean;
  /** Queries in flight in this thread (one set of servers each). */
  concurrency: number;
  context: string;
  /** The run span the queries' spans hang under. */
  spanParent: SpanParent;
}

/** A finished task as the files want it. */
export interface FinishedTask {
  key: string;
  config: string;
  taskSuccess: boolean;
  /** Its item could not be scored (score.invalid): not in the running accuracy either. */
  invalid: boolean;
  /** Its records.jsonl line, newline included, as UTF-8 (store.ts lineBytes: a worker transfers it). */
  recordLine: Uint8Array<ArrayBuffer>;
  /** Its spans' traces.jsonl lines, newlines included, as UTF-8. */
  spanLines: Uint8Array<ArrayBuffer>;
}

export interface ShareHooks {
  signal: AbortSignal;
  /** Watches this thread's providers (the main thread's watch stops the whole run). */
  outage: ModelOutageWatch;
  /** The providers to use (the main thread made its own before the run started); default: new ones. */
  providers?: (model: string, repeat: number) => ModelProvider;
  onFinished: (task: FinishedTask) => void;
}

export async function runShare(spec: ShareSpec, tasks: readonly Task[], hooks: ShareHooks): Promise<TaskFailure[]> {
  const providers = hooks.providers ?? shareProviders(spec, hooks.outage);
  const byId = new Map(spec.items.map((item) => [item.id, item]));
  const servers: ToolEnvironment = spec.bfcl
    ? new BfclEnvironment()
    : await MockEnvironment.open({
        registry: loadRegistry(spec.request.registry),
        transport: spec.request.transport,
        pools: spec.concurrency,
        seed: spec.request.seed,
        ...(spec.request.faults ? { faults: spec.request.faults } : {}),
      });
  const dryRun = spec.request.dryRun === true;
  const environment = dryRun ? new DryRunEnvironment(servers) : servers;
  const spanLines: string[] = [];
  const tracer = startQueryTracer(spec.runId, spec.spanParent, (line) => {
    spanLines.push(JSON.stringify(line), "\n");
  });
  try {
    const catalog = new ToolCatalog(environment.definitions());
    return await executeTasks<ItemScore>({
      tasks,
      items: byId,
      provider: providers,
      config: (model, config) => spec.resolved[model]![config]!,
      environment,
      score: ({ item, result, state, environment: env }) =>
        scoreItem({
          item: dryRun ? dryRunItem(item) : item,
          trace: result,
          stateChecks: state,
          tools: item.tools || spec.bfcl ? env.definitions(item) : catalog,
        }),
      concurrency: spec.concurrency,
      context: spec.context,
      signal: AbortSignal.any([hooks.signal, hooks.outage.signal]),
      onRecord: (record) => {
        const item = byId.get(record.itemId)!;
        const recordLine = jsonLineBytes({ ...record, category: item.category } satisfies RunRecord);
        spanLines.length = 0;
        tracer.recordQuery({
          key: record.key,
          model: record.model,
          config: record.config,
          itemId: record.itemId,
          category: item.category,
          startedAt: record.startedAt,
          result: record.result,
          taskSuccess: record.score.taskSuccess,
        });
        hooks.onFinished({
          key: record.key,
          config: record.config,
          taskSuccess: record.score.taskSuccess,
          invalid: record.score.invalid !== undefined,
          recordLine,
          spanLines: lineBytes(spanLines.join("")),
        });
      },
    });
  } finally {
    await tracer.end();
    await environment.close();
  }
}

function shareProviders(spec: ShareSpec, outage: ModelOutageWatch): (model: string, repeat: number) => ModelProvider {
  const models = loadModelsConfig(spec.modelsFile);
  const entries = resolveEntries(models, spec.request);
  return providerCache(entries, spec.items, spec.request, outage);
}
