/**
 * `pnpm bench`: resolves what to run (models × configurations × items × repeats), deals the tasks to its
 * threads (each opens its servers once: share.ts, threads.ts), appends each record as it finishes, and
 * writes the summary. A resumed run re-reads its
 * own run.json, so it runs exactly the matrix it started with and skips every key already on disk.
 */

import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { MOCK_NOW } from "../../../mock-servers/kit/types.ts";
import type { AgentConfig, AgentConfigInput } from "../../agent/index.ts";
import { loadBfclDataset } from "../../bfcl/dataset.ts";
import {
  loadModelsConfig,
  type ModelEntry,
  type ModelsConfig,
  matrixConfigs,
  matrixModels,
  resolveConfiguration,
} from "../../config/models-yaml.ts";
import { InputError } from "../../errors.ts";
import type { FaultConfig } from "../../mcp/faults.ts";
import { loadRegistry } from "../../mcp/registry.ts";
import { providerId } from "../../models/factory.ts";
import type { ModelFacts, WarmUp } from "../../models/types.ts";
import { REPO_ROOT } from "../../paths.ts";
import { datasetHash, type ItemCount, narrowItems, selectItems } from "../dataset/select.ts";
import type { DatasetItem } from "../dataset/types.ts";
import { type ItemScore, loadMetricModules, type ScoredRecord, summarize, validRecords } from "../scoring/index.ts";
import { isBfclDataset } from "./bfcl-environment.ts";
import { compareConfigurations, type RunSummary } from "./compare-configs.ts";
import type { TaskFailure, TaskRecord } from "./execute.ts";
import { readManifest } from "./manifest.ts";
import { expandMatrix, type Shard, selectShard } from "./matrix.ts";
import { type ModelProbe, probeModels } from "./model-facts.ts";
import { ModelOutageWatch } from "./model-outage.ts";
import { providerCache, resolveEntries } from "./providers.ts";
import { harnessRedactor } from "./secrets.ts";
import { runShare, type ShareHooks, type ShareSpec } from "./share.ts";
import { startRunTracer } from "./spans.ts";
import {
  forEachJsonl,
  JsonlAppender,
  newRunId,
  RESULTS_DIR,
  RUN_FILES,
  runDir,
  tornTailBytes,
  truncateTorn,
  writeJsonAtomic,
} from "./store.ts";
import { runShareInThread } from "./threads.ts";

/** What the user asked for; stored in run.json so that a resume runs the same matrix. */
export interface BenchRequest {
  models: string[];
  /** Configuration names, or empty to use `matrix` (or the models file's default matrix). */
  configs: string[];
  matrix?: string;
  dataset: string[];
  filter: Record<string, string[]>;
  /** `--limit N`: a sample over the categories, drawn with the seed. */
  limit?: number;
  /** `--first N`: the first N items in file order. */
  first?: number;
  seed: number;
  repeats: number;
  timeoutS?: number;
  shard?: Shard;
  transport: "stdio" | "memory";
  record?: string;
  replay?: string;
  /** Fault injection on every mock server (`--faults`, or MOCK_MCP_FAULTS), on either transport. */
  faults?: FaultConfig;
  /** `--num-ctx N`: every request of a real Ollama model gets this window instead of the entry's (`auto`). */
  numCtx?: number;
  /** The servers' registry.json (absolute path; default mock-servers/registry.json): a user's own servers. */
  registry?: string;
  /** `--dry-run`: write tools answer with previews (dry-run.ts); end-state checks are not measured. */
  dryRun?: boolean;
}

export interface RunModel {
  name: string;
  provider: string;
  id: string;
  simulated: boolean;
  replayedFrom?: string;
  /** The stand-in server (mock-servers/ollama) answered: its numbers are simulated, through a real client. */
  standin?: string;
  /** What the server said about itself and the model before the first item (real servers). */
  facts?: ModelFacts;
  /** The unscored request that loaded the model before measuring. */
  warmUp?: WarmUp;
  /** The context windows (num_ctx) the run's requests got, smallest first. */
  windowsUsed?: number[];
}

export interface RunManifest {
  runId: string;
  request: BenchRequest;
  models: RunModel[];
  configs: string[];
  /** The resolved agent configuration of every model × configuration (CLI > model > config > defaults). */
  resolved: Record<string, Record<string, AgentConfig>>;
  dataset: { files: string[]; hash: string; items: number; itemIds: string[] };
  tasks: number;
  versions: Record<string, string>;
  simulated: boolean;
  /** Some numbers came through the stand-in server: "simulated (stand-in)". */
  standin?: boolean;
  startedAt: string;
  finishedAt?: string;
  /** Sessions of this run: the first, then one per resume (a merged run: every shard's). */
  sessions: {
    startedAt: string;
    finishedAt?: string;
    tasksRun: number;
    harnessFailures: number;
    /** Threads that ran tasks (absent in runs made before threads). */
    threads?: number;
  }[];
  /** A run made by `results merge`: the runs it was made from. */
  mergedFrom?: string[];
}

export interface BenchOptions {
  request: BenchRequest;
  /** Continue this run (its run.json decides the matrix; `request` only lends concurrency). */
  resume?: string;
  concurrency?: number;
  /** Threads that run tasks (the simulator only; default: one per core for a big simulator run). */
  threads?: number;
  modelsFile?: string;
  resultsRoot?: string;
  /** CLI flags over the configuration axes (highest precedence). */
  cli?: AgentConfigInput;
  onProgress?: (progress: BenchProgress) => void;
  /** The run's id and folder, once run.json is written (a stop signal's message names them). */
  onStarted?: (runId: string, dir: string) => void;
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
  await loadMetricModules(models.metricModules);
  const previous = options.resume ? readManifest(runDir(options.resume, root)) : undefined;
  const request = previous?.request ?? options.request;
  if ((request.record || request.replay) && request.repeats > 1) {
    // a cassette keys a request by what was sent, not by the simulator's per-repeat seed
    throw new InputError(
      "BAD_FLAG",
      "--record and --replay work with --repeats 1 only (a cassette cannot tell repeats apart)",
    );
  }
  const entries = resolveEntries(models, request);
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
        items: narrowItems(loadBfclDataset(request.dataset[0]!).items, request.filter, itemCount(request)),
        files: request.dataset,
      }
    : selectItems(request.dataset, request.filter, itemCount(request), loadRegistry(request.registry));
  const runId = previous?.runId ?? newRunId(request.models.join("+"));
  const dir = runDir(runId, root);
  const resolved = resolveAll(models, entries, configs, options.cli, request.timeoutS);
  // Real models: one query at a time, so latencies are honest. The simulator in memory is pure CPU:
  // concurrency in one thread only interleaves (measured slower), threads do the work in parallel; over
  // stdio the servers work in processes of their own, so queries in flight overlap.
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
  // every append-only file this session continues starts on a clean line
  const tracesFile = join(dir, RUN_FILES.traces);
  truncateTorn(tracesFile, tornTailBytes(tracesFile));
  const todo = tasks.filter((task) => !done.has(task.key));
  const skipped = tasks.length - todo.length;
  const threads = threadCount(options.threads, entries, request, todo.length);

  const session: RunManifest["sessions"][number] = {
    startedAt: new Date().toISOString(),
    tasksRun: 0,
    harnessFailures: 0,
    threads,
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
  let probes: Record<string, ModelProbe>;
  try {
    probes = await probeModels(entries, providers, resolved);
  } catch (error) {
    throw outage.stoppedRun(runId, skipped) ?? error;
  }
  if (!previous) {
    manifest.models = manifest.models.map((model) => withProbe(model, probes[model.name]));
    if (manifest.models.some((model) => model.standin)) manifest.standin = true;
  }
  writeJsonAtomic(join(dir, RUN_FILES.run), manifest);
  options.onStarted?.(runId, dir);

  const byId = new Map(items.map((item) => [item.id, item]));
  const redactor = harnessRedactor(options.modelsFile, request.registry);
  const appender = new JsonlAppender(recordsFile, redactor);
  const tracesAppender = new JsonlAppender(tracesFile, redactor);
  const runTracer = startRunTracer(runId, (line) => tracesAppender.append(line));
  const running: BenchProgress["running"] = Object.fromEntries(configs.map((config) => [config, { ok: 0, n: 0 }]));
  let finished = 0;
  let failures: TaskFailure[] = [];
  const spec: ShareSpec = {
    runId,
    request,
    modelsFile: options.modelsFile,
    resolved,
    items,
    bfcl,
    // the queries in flight are spread over the threads
    concurrency: Math.max(1, Math.round(concurrency / threads)),
    context: MOCK_WORLD_CONTEXT,
    spanParent: runTracer.parent,
  };
  const stopShares = new AbortController();
  const hooks: ShareHooks = {
    signal: AbortSignal.any([outage.signal, stopShares.signal, ...(options.signal ? [options.signal] : [])]),
    outage,
    providers,
    onFinished: (task) => {
      appender.appendBytes(task.recordLine);
      tracesAppender.appendBytes(task.spanLines);
      const tally = running[task.config]!;
      if (!task.invalid) {
        tally.n += 1;
        if (task.taskSuccess) tally.ok += 1;
      }
      finished += 1;
      options.onProgress?.({ done: finished, total: todo.length, running });
    },
  };
  try {
    // whole items per thread (all their configurations and repeats), dealt round-robin like shards
    const itemIds = items.map((item) => item.id);
    const shares = Array.from({ length: threads }, (_, index) =>
      threads === 1 ? todo : selectShard(todo, { index: index + 1, count: threads }, itemIds),
    );
    // a share that fails stops the others, and every thread is done before the files close
    const settled = await Promise.allSettled(
      shares.map((share, index) =>
        (index === 0 ? runShare(spec, share, hooks) : runShareInThread(spec, share, hooks)).catch((error: unknown) => {
          stopShares.abort(error);
          throw error;
        }),
      ),
    );
    const failed = settled.find((result) => result.status === "rejected");
    if (failed) throw failed.reason;
    failures = settled.flatMap((result) => (result.status === "fulfilled" ? result.value : []));
  } finally {
    appender.close();
    await runTracer.end({ "onsetlab.tasks": finished });
    tracesAppender.close();
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

/**
 * Reads every record of the run back and writes summary.json (also used by `results merge`); notes in
 * the manifest the windows each model's requests got (the caller writes run.json).
 */
export function writeSummary(dir: string, manifest: RunManifest, items: ReadonlyMap<string, DatasetItem>): RunSummary {
  // streamed: only the scores stay in memory, never the traces
  const scored: ScoredRecord[] = [];
  const windows = new Map<string, Set<number>>();
  forEachJsonl<RunRecord>(join(dir, RUN_FILES.records), (record) => {
    for (const call of record.result.modelCalls) {
      if (call.context?.window === undefined) continue;
      const seen = windows.get(record.model) ?? new Set<number>();
      windows.set(record.model, seen.add(call.context.window));
    }
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
  manifest.models = manifest.models.map((model) =>
    windows.has(model.name) ? { ...model, windowsUsed: [...windows.get(model.name)!].sort((a, b) => a - b) } : model,
  );
  const summary: RunSummary = {
    runId: manifest.runId,
    simulated: manifest.simulated,
    ...(manifest.standin ? { standin: true } : {}),
    ...(manifest.request.replay ? { replayedFrom: manifest.request.replay } : {}),
    ...(manifest.request.dryRun ? { dryRun: true } : {}),
    records: scored.length,
    ...summarize(scored),
    comparisons: compareConfigurations(validRecords(scored)),
  };
  writeJsonAtomic(join(dir, RUN_FILES.summary), summary);
  return summary;
}

/** Below this many tasks a thread's start-up (its own servers, about a second) costs more than it saves. */
const TASKS_PER_EXTRA_THREAD = 1000;

/**
 * Threads to run tasks on. Only the simulator without cassettes: real models are measured one query at a
 * time (honest latency), and a cassette is one file. By default one per core, as far as the tasks pay for it.
 */
function threadCount(
  requested: number | undefined,
  entries: readonly ModelEntry[],
  request: BenchRequest,
  tasks: number,
): number {
  const eligible = entries.every((entry) => entry.provider === "sim") && !request.record && !request.replay;
  if (requested !== undefined) {
    if (requested > 1 && !eligible) {
      throw new InputError(
        "BAD_FLAG",
        "--threads above 1 runs the simulator only, without --record/--replay (real models run one query at a time)",
      );
    }
    return requested;
  }
  if (!eligible) return 1;
  return Math.max(1, Math.min(availableParallelism(), 1 + Math.floor(tasks / TASKS_PER_EXTRA_THREAD)));
}

/** How many of the filtered items the request takes (`--limit`, `--first`). */
export function itemCount(request: Pick<BenchRequest, "limit" | "first" | "seed">): ItemCount {
  return { limit: request.limit, first: request.first, seed: request.seed };
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

function withProbe(model: RunModel, probe: ModelProbe | undefined): RunModel {
  if (!probe) return model;
  const standin = probe.facts.standin?.profile;
  return { ...model, ...(standin ? { standin } : {}), facts: probe.facts, warmUp: probe.warmUp };
}

function describeModel(entry: ModelEntry, request: BenchRequest): RunModel {
  return {
    name: entry.name,
    provider: entry.provider,
    id: providerId(entry),
    simulated: entry.provider === "sim",
    ...(request.replay ? { replayedFrom: request.replay } : {}),
  };
}

export function versions(): Record<string, string> {
  const root = REPO_ROOT;
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
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
