/**
 * `pnpm bench`: resolves what to run (models × configurations × items × repeats), opens the servers once,
 * runs every task, appends each record as it finishes, and writes the summary. A resumed run re-reads its
 * own run.json, so it runs exactly the matrix it started with and skips every key already on disk.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { MOCK_NOW } from "../../../mock-servers/kit/types.ts";
import type { AgentConfig, AgentConfigInput } from "../../agent/index.ts";
import { loadBfclDataset } from "../../bfcl/dataset.ts";
import { InputError } from "../../errors.ts";
import { loadRegistry } from "../../mcp/registry.ts";
import {
  loadModelsConfig,
  type ModelEntry,
  type ModelsConfig,
  matrixConfigs,
  matrixModels,
  resolveConfiguration,
  resolveModel,
} from "../../models/config.ts";
import { createProvider, providerId } from "../../models/factory.ts";
import type { ModelProvider } from "../../models/types.ts";
import { datasetHash, narrowItems, selectItems } from "../dataset/select.ts";
import type { DatasetItem } from "../dataset/types.ts";
import { type ItemScore, type ScoredRecord, scoreItem, summarize, ToolCatalog } from "../scoring/index.ts";
import { BfclEnvironment, isBfclDataset } from "./bfcl-environment.ts";
import { compareConfigurations, type RunSummary } from "./compare-configs.ts";
import { MockEnvironment, type ToolEnvironment } from "./environment.ts";
import { executeTasks, type TaskFailure, type TaskRecord } from "./execute.ts";
import { expandMatrix, type Shard, selectShard } from "./matrix.ts";
import { ModelOutageWatch } from "./model-outage.ts";
import { startRunTracer } from "./spans.ts";
import {
  forEachJsonl,
  JsonlAppender,
  newRunId,
  RESULTS_DIR,
  RUN_FILES,
  readJson,
  runDir,
  truncateTorn,
  writeJsonAtomic,
} from "./store.ts";

/** What the user asked for; stored in run.json so that a resume runs the same matrix. */
export interface BenchRequest {
  models: string[];
  /** Configuration names, or empty to use `matrix` (or the models file's default matrix). */
  configs: string[];
  matrix?: string;
  dataset: string[];
  filter: Record<string, string[]>;
  limit?: number;
  seed: number;
  repeats: number;
  timeoutS?: number;
  shard?: Shard;
  transport: "stdio" | "memory";
  record?: string;
  replay?: string;
}

export interface RunManifest {
  runId: string;
  request: BenchRequest;
  models: { name: string; provider: string; id: string; simulated: boolean; replayedFrom?: string }[];
  configs: string[];
  /** The resolved agent configuration of every model × configuration (CLI > model > config > defaults). */
  resolved: Record<string, Record<string, AgentConfig>>;
  dataset: { files: string[]; hash: string; items: number; itemIds: string[] };
  tasks: number;
  versions: Record<string, string>;
  simulated: boolean;
  startedAt: string;
  finishedAt?: string;
  /** Sessions of this run: the first, then one per resume (a merged run: every shard's). */
  sessions: { startedAt: string; finishedAt?: string; tasksRun: number; harnessFailures: number }[];
  /** A run made by `results merge`: the runs it was made from. */
  mergedFrom?: string[];
}

export interface BenchOptions {
  request: BenchRequest;
  /** Continue this run (its run.json decides the matrix; `request` only lends concurrency). */
  resume?: string;
  concurrency?: number;
  modelsFile?: string;
  resultsRoot?: string;
  /** CLI flags over the configuration axes (highest precedence). */
  cli?: AgentConfigInput;
  onProgress?: (progress: BenchProgress) => void;
  signal?: AbortSignal;
}

export interface BenchProgress {
  done: number;
  total: number;
  /** Task success so far per configuration (this session's tasks). */
  running: Record<string, { ok: number; n: number }>;
}

export interface BenchOutcome {
  runId: string;
  dir: string;
  manifest: RunManifest;
  summary: RunSummary;
  failures: TaskFailure[];
  /** Tasks skipped because a resumed run already had them. */
  skipped: number;
}

export type RunRecord = TaskRecord<ItemScore> & { category: string };

/** Facts every query's planner gets (the mock world's date); `pnpm agent` gives the same. */
export const MOCK_WORLD_CONTEXT = `Today is ${MOCK_NOW.toLocaleDateString("en-US", {
  weekday: "long",
  year: "numeric",
  month: "long",
  day: "numeric",
  timeZone: "UTC",
})}, ${MOCK_NOW.toISOString().slice(11, 16)} UTC.`;

export async function runBench(options: BenchOptions): Promise<BenchOutcome> {
  const root = options.resultsRoot ?? RESULTS_DIR;
  const models = loadModelsConfig(options.modelsFile);
  const previous = options.resume
    ? readJson<RunManifest>(join(runDir(options.resume, root), RUN_FILES.run), "run.json")
    : undefined;
  const request = previous?.request ?? options.request;
  if ((request.record || request.replay) && request.repeats > 1) {
    // a cassette keys a request by what was sent, not by the simulator's per-repeat seed
    throw new InputError(
      "BAD_FLAG",
      "--record and --replay work with --repeats 1 only (a cassette cannot tell repeats apart)",
    );
  }
  const entries = request.models.map((name) => resolveModel(models, name));
  const configs = configNames(models, request);
  const bfcl = isBfclDataset(request.dataset);
  if (bfcl && request.dataset.length !== 1) {
    throw new InputError(
      "BAD_FLAG",
      "--dataset bfcl:<category>[,<category>…] is one spec, not mixed with dataset files",
    );
  }
  const { items, files } = bfcl
    ? {
        items: narrowItems(loadBfclDataset(request.dataset[0]!).items, request.filter, request.limit),
        files: request.dataset,
      }
    : selectItems(request.dataset, request.filter, request.limit);
  const runId = previous?.runId ?? newRunId(request.models.join("+"));
  const dir = runDir(runId, root);
  const resolved = resolveAll(models, entries, configs, options.cli, request.timeoutS);
  // Real models: one query at a time, so latencies are honest. The simulator in memory runs on this one
  // thread, where concurrency only interleaves (measured slower); over stdio the servers work in parallel.
  const simulated = entries.every((entry) => entry.provider === "sim");
  const concurrency = options.concurrency ?? (simulated && request.transport === "stdio" ? 4 : 1);

  const allTasks = expandMatrix({
    models: request.models,
    configs,
    itemIds: items.map((item) => item.id),
    repeats: request.repeats,
  });
  const tasks = request.shard
    ? selectShard(
        allTasks,
        request.shard,
        items.map((item) => item.id),
      )
    : allTasks;
  const recordsFile = join(dir, RUN_FILES.records);
  const done = new Set<string>();
  truncateTorn(
    recordsFile,
    forEachJsonl<RunRecord>(recordsFile, (record) => done.add(record.key)),
  );
  const todo = tasks.filter((task) => !done.has(task.key));
  const skipped = tasks.length - todo.length;

  const session: RunManifest["sessions"][number] = {
    startedAt: new Date().toISOString(),
    tasksRun: 0,
    harnessFailures: 0,
  };
  const manifest: RunManifest = previous
    ? { ...previous, finishedAt: undefined, sessions: [...previous.sessions, session] }
    : {
        runId,
        request,
        models: entries.map((entry) => describeModel(entry, request)),
        configs,
        resolved,
        dataset: { files, hash: datasetHash(items), items: items.length, itemIds: items.map((item) => item.id) },
        tasks: tasks.length,
        versions: versions(),
        // a replayed simulator cassette is still the simulator's numbers
        simulated: entries.some((entry) => entry.provider === "sim"),
        startedAt: session.startedAt,
        sessions: [session],
      };
  if (previous && previous.dataset.hash !== datasetHash(items)) {
    throw new InputError(
      "RESUME_DATASET_CHANGED",
      `--resume ${runId}: the dataset changed since the run started (hash ${previous.dataset.hash} → ${datasetHash(items)}); start a new run`,
    );
  }
  // made before anything is written: a bad model name or endpoint is bad input, not a half-made run
  const outage = new ModelOutageWatch();
  const providers = providerCache(entries, items, request, outage);
  for (const entry of entries) providers(entry.name, 0);
  writeJsonAtomic(join(dir, RUN_FILES.run), manifest);

  const byId = new Map(items.map((item) => [item.id, item]));
  const environment: ToolEnvironment = bfcl
    ? new BfclEnvironment()
    : await MockEnvironment.open({ registry: loadRegistry(), transport: request.transport, pools: concurrency });
  const appender = new JsonlAppender(recordsFile);
  const tracesAppender = new JsonlAppender(join(dir, RUN_FILES.traces));
  const tracer = startRunTracer(runId, (line) => tracesAppender.append(line));
  const running: BenchProgress["running"] = Object.fromEntries(configs.map((config) => [config, { ok: 0, n: 0 }]));
  let finished = 0;
  let failures: TaskFailure[] = [];
  try {
    const catalog = new ToolCatalog(environment.definitions());
    failures = await executeTasks<ItemScore>({
      tasks: todo,
      items: byId,
      provider: (model, repeat) => providers(model, repeat),
      config: (model, config) => resolved[model]![config]!,
      environment,
      score: ({ item, result, state, environment: env }) =>
        scoreItem({
          item,
          trace: result,
          stateChecks: state,
          tools: item.tools || bfcl ? env.definitions(item) : catalog,
        }),
      concurrency,
      context: MOCK_WORLD_CONTEXT,
      signal: options.signal ? AbortSignal.any([options.signal, outage.signal]) : outage.signal,
      onRecord: (record) => {
        const item = byId.get(record.itemId)!;
        appender.append({ ...record, category: item.category } satisfies RunRecord);
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
        const tally = running[record.config]!;
        tally.n += 1;
        if (record.score.taskSuccess) tally.ok += 1;
        finished += 1;
        options.onProgress?.({ done: finished, total: todo.length, running });
      },
    });
  } finally {
    appender.close();
    await tracer.end({ "onsetlab.tasks": finished });
    tracesAppender.close();
    await environment.close();
  }
  const stopped = outage.stoppedRun(runId, skipped + finished);
  if (stopped) {
    if (!previous && finished === 0) rmSync(dir, { recursive: true, force: true });
    throw stopped;
  }

  session.tasksRun = finished;
  session.harnessFailures = failures.length;
  const summary = writeSummary(dir, manifest, byId);
  const complete = summary.records === tasks.length;
  session.finishedAt = new Date().toISOString();
  if (complete) manifest.finishedAt = session.finishedAt;
  writeJsonAtomic(join(dir, RUN_FILES.run), manifest);
  return { runId, dir, manifest, summary, failures, skipped };
}

/** Reads every record of the run back and writes summary.json (also used by `results merge`). */
export function writeSummary(dir: string, manifest: RunManifest, items: ReadonlyMap<string, DatasetItem>): RunSummary {
  // streamed: only the scores stay in memory, never the traces
  const scored: ScoredRecord[] = [];
  forEachJsonl<RunRecord>(join(dir, RUN_FILES.records), (record) => {
    scored.push({
      model: record.model,
      config: record.config,
      item: items.get(record.itemId)!,
      score: record.score,
      repeat: record.repeat,
    });
  });
  // in matrix order, not finishing order: the same run always writes the same summary
  const rank = (order: readonly string[]) => new Map(order.map((name, index) => [name, index]));
  const models = rank(manifest.request.models);
  const configs = rank(manifest.configs);
  const itemOrder = rank(manifest.dataset.itemIds);
  scored.sort(
    (a, b) =>
      models.get(a.model)! - models.get(b.model)! ||
      configs.get(a.config)! - configs.get(b.config)! ||
      itemOrder.get(a.item.id)! - itemOrder.get(b.item.id)! ||
      (a.repeat ?? 0) - (b.repeat ?? 0),
  );
  const summary: RunSummary = {
    runId: manifest.runId,
    simulated: manifest.simulated,
    ...(manifest.request.replay ? { replayedFrom: manifest.request.replay } : {}),
    records: scored.length,
    ...summarize(scored),
    comparisons: compareConfigurations(scored),
  };
  writeJsonAtomic(join(dir, RUN_FILES.summary), summary);
  return summary;
}

function configNames(models: ModelsConfig, request: BenchRequest): string[] {
  if (request.configs.length > 0) return request.configs;
  const matrix = request.matrix ?? models.defaultMatrix ?? "default";
  return matrixConfigs(models, matrix);
}

/** Models a matrix names itself (when `--model` is not given): exported for the CLI. */
export function modelsOfMatrix(modelsFile: string | undefined, matrix: string): string[] | undefined {
  return matrixModels(loadModelsConfig(modelsFile), matrix);
}

function resolveAll(
  models: ModelsConfig,
  entries: readonly ModelEntry[],
  configs: readonly string[],
  cli: AgentConfigInput | undefined,
  timeoutS: number | undefined,
): Record<string, Record<string, AgentConfig>> {
  const overrides: AgentConfigInput = {
    ...cli,
    ...(timeoutS === undefined ? {} : { limits: { ...cli?.limits, totalTimeoutMs: timeoutS * 1000 } }),
  };
  return Object.fromEntries(
    entries.map((model) => [
      model.name,
      Object.fromEntries(
        configs.map((configName) => [configName, resolveConfiguration(models, { model, configName, cli: overrides })]),
      ),
    ]),
  );
}

function describeModel(entry: ModelEntry, request: BenchRequest): RunManifest["models"][number] {
  return {
    name: entry.name,
    provider: entry.provider,
    id: providerId(entry),
    simulated: entry.provider === "sim",
    ...(request.replay ? { replayedFrom: request.replay } : {}),
  };
}

/** One provider per model and repeat (the simulator's seed moves with the repeat), made on first use. */
function providerCache(
  entries: readonly ModelEntry[],
  items: readonly DatasetItem[],
  request: BenchRequest,
  outage: ModelOutageWatch,
): (model: string, repeat: number) => ModelProvider {
  const made = new Map<string, ModelProvider>();
  return (model, repeat) => {
    const key = `${model}#${repeat}`;
    let provider = made.get(key);
    if (!provider) {
      const entry = entries.find((candidate) => candidate.name === model)!;
      provider = outage.watch(
        createProvider(entry, {
          gold: [...items],
          seed: request.seed + repeat,
          record: request.record,
          replay: request.replay,
        }),
      );
      made.set(key, provider);
    }
    return provider;
  };
}

function versions(): Record<string, string> {
  const root = new URL("../../../", import.meta.url);
  const pkg = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as {
    version: string;
    dependencies: Record<string, string>;
  };
  let git = "unknown";
  try {
    git = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain"], { cwd: root, encoding: "utf8" }).trim();
    if (dirty) git += "+dirty";
  } catch {
    // not a git checkout (a tarball): the package version still says what ran
  }
  return {
    onsetlab: pkg.version,
    git,
    node: process.version,
    "@modelcontextprotocol/sdk": pkg.dependencies["@modelcontextprotocol/sdk"] ?? "",
    ollama: pkg.dependencies.ollama ?? "",
  };
}
