/**
 * `pnpm bench`: resolves what to run (models × configurations × items × repeats; resolve-request.ts), deals
 * the tasks to its threads (each opens its servers once: share.ts, threads.ts), appends each record as it
 * finishes, and writes the summary (summary-file.ts). A resumed run re-reads its own run.json, so it runs
 * exactly the matrix it started with and skips every key already on disk.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { AgentConfigInput } from "../../agent/index.ts";
import { loadBfclDataset } from "../../bfcl/dataset.ts";
import { loadModelsConfig, type ModelEntry, type ModelsConfig } from "../../config/models-yaml.ts";
import { InputError } from "../../errors.ts";
import { loadRegistry } from "../../mcp/registry.ts";
import { type CacheCounters, type RequestCache, requestCacheAt } from "../../models/request-cache.ts";
import { datasetHash, narrowItems, selectItems } from "../dataset/select.ts";
import type { DatasetItem } from "../dataset/types.ts";
import { MOCK_WORLD_CONTEXT } from "../dataset/world-clock.ts";
import { loadMetricModules } from "../scoring/index.ts";
import { isBfclDataset } from "./bfcl-environment.ts";
import type { RunSummary } from "./compare-configs.ts";
import type { TaskFailure } from "./execute.ts";
import { readManifest } from "./manifest.ts";
import { expandMatrix, selectShard, type Task } from "./matrix.ts";
import { type ModelProbe, probeModels } from "./model-facts.ts";
import { ModelOutageWatch } from "./model-outage.ts";
import { providerCache, resolveEntries, serverSlots } from "./providers.ts";
import {
  configNames,
  describeModel,
  itemCount,
  resolveAll,
  threadCount,
  versions,
  withProbe,
} from "./resolve-request.ts";
import type { BenchRequest, CacheUse, RunManifest } from "./run-files.ts";
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
import { writeSummary } from "./summary-file.ts";
import { runShareInThread } from "./threads.ts";

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
  /**
   * The request cache's folder (the CLI's default: `defaultCacheDir()`, none with `--no-cache`). Only
   * real models are cached, and not under `--replay`.
   */
  cacheDir?: string;
  onProgress?: (progress: BenchProgress) => void;
  /** The run's id and folder, once run.json is written (a stop signal's message names them). */
  onStarted?: (runId: string, dir: string) => void;
  signal?: AbortSignal;
}

export interface BenchProgress {
  done: number;
  total: number;
  /** The task that just finished. */
  key: string;
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

/** What a request resolves to: the models, configurations and items, and the tasks still to run. */
export interface Work {
  request: BenchRequest;
  previous?: RunManifest;
  entries: ModelEntry[];
  configs: string[];
  items: DatasetItem[];
  files: string[];
  bfcl: boolean;
  runId: string;
  dir: string;
  resolved: RunManifest["resolved"];
  /** Every task of this run (its shard's, when sharded). */
  tasks: Task[];
  /** The tasks not yet on disk. */
  todo: Task[];
  concurrency: number;
  threads: number;
}

export async function runBench(options: BenchOptions): Promise<BenchOutcome> {
  const models = loadModelsConfig(options.modelsFile);
  await loadMetricModules(models.metricModules);
  const work = resolveWork(options, models);
  const { request, previous, entries, runId, dir, tasks, todo } = work;
  const skipped = tasks.length - todo.length;
  const session: RunManifest["sessions"][number] = {
    startedAt: new Date().toISOString(),
    tasksRun: 0,
    harnessFailures: 0,
    threads: work.threads,
  };
  const manifest: RunManifest = previous
    ? { ...previous, finishedAt: undefined, sessions: [...previous.sessions, session] }
    : newManifest(work, session);
  // made before anything is written: a bad model name or endpoint is bad input, not a half-made run
  const outage = new ModelOutageWatch();
  const cache = requestCacheOf(options.cacheDir, entries, request);
  const before = cache && { ...cache.counters };
  const providers = providerCache(entries, work.items, request, outage, cache);
  for (const entry of entries) providers(entry.name, 0);
  let probes: Record<string, ModelProbe>;
  try {
    probes = await probeModels(entries, providers, work.resolved);
  } catch (error) {
    throw outage.stoppedRun(runId, skipped) ?? error;
  }
  if (!previous) {
    manifest.models = manifest.models.map((model) => withProbe(model, probes[model.name]));
    if (manifest.models.some((model) => model.standin)) manifest.standin = true;
  }
  writeJsonAtomic(join(dir, RUN_FILES.run), manifest);
  options.onStarted?.(runId, dir);

  const { finished, failures } = await runTasks(work, options, outage, providers);
  const stopped = outage.stoppedRun(runId, skipped + finished);
  if (stopped) {
    if (!previous && finished === 0) rmSync(dir, { recursive: true, force: true });
    throw stopped;
  }
  session.tasksRun = finished;
  session.harnessFailures = failures.length;
  if (cache && before) session.cache = cacheUse(cache, before);
  const summary = writeSummary(dir, manifest, new Map(work.items.map((item) => [item.id, item])));
  session.finishedAt = new Date().toISOString();
  if (summary.records === tasks.length) manifest.finishedAt = session.finishedAt;
  writeJsonAtomic(join(dir, RUN_FILES.run), manifest);
  return { runId, dir, manifest, summary, failures, skipped };
}

function requestCacheOf(
  dir: string | undefined,
  entries: readonly ModelEntry[],
  request: BenchRequest,
): RequestCache | undefined {
  if (!dir || request.replay || entries.every((entry) => entry.provider === "sim")) return undefined;
  return requestCacheAt(dir);
}

/** This session's share of the process's cache counters. */
function cacheUse(cache: RequestCache, before: CacheCounters): CacheUse {
  const { hits, misses, coalesced } = cache.counters;
  return {
    dir: cache.dir,
    hits: hits - before.hits,
    misses: misses - before.misses,
    coalesced: coalesced - before.coalesced,
  };
}

/** Resolves the request (a resume's own) and reads which tasks are already on disk; writes nothing. */
export function resolveWork(options: BenchOptions, models: ModelsConfig): Work {
  const root = options.resultsRoot ?? RESULTS_DIR;
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
  if (previous && previous.dataset.hash !== datasetHash(items)) {
    throw new InputError(
      "RESUME_DATASET_CHANGED",
      `--resume ${previous.runId}: the dataset changed since the run started (hash ${previous.dataset.hash} → ${datasetHash(items)}); start a new run`,
    );
  }
  const runId = previous?.runId ?? newRunId(request.models.join("+"));
  const dir = runDir(runId, root);
  const itemIds = items.map((item) => item.id);
  const allTasks = expandMatrix({ models: request.models, configs, itemIds, repeats: request.repeats });
  const tasks = request.shard ? selectShard(allTasks, request.shard, itemIds) : allTasks;
  const done = new Set<string>();
  const recordsFile = join(dir, RUN_FILES.records);
  truncateTorn(
    recordsFile,
    forEachJsonl<{ key: string }>(recordsFile, (record) => done.add(record.key)),
  );
  const todo = tasks.filter((task) => !done.has(task.key));
  // Real models: one query at a time, so latencies are honest. The simulator in memory is pure CPU:
  // concurrency in one thread only interleaves (measured slower), threads do the work in parallel; over
  // stdio the servers work in processes of their own, so queries in flight overlap.
  const simulated = entries.every((entry) => entry.provider === "sim");
  return {
    request,
    ...(previous ? { previous } : {}),
    entries,
    configs,
    items,
    files,
    bfcl,
    runId,
    dir,
    resolved: resolveAll(models, entries, configs, options.cli, request.timeoutS),
    tasks,
    todo,
    concurrency: options.concurrency ?? (simulated && request.transport === "stdio" ? 4 : serverSlots(entries)),
    threads: threadCount(options.threads, entries, request, todo.length),
  };
}

function newManifest(work: Work, session: RunManifest["sessions"][number]): RunManifest {
  const { request, entries, items } = work;
  return {
    runId: work.runId,
    request,
    models: entries.map((entry) => describeModel(entry, request)),
    configs: work.configs,
    resolved: work.resolved,
    dataset: {
      files: work.files,
      hash: datasetHash(items),
      items: items.length,
      itemIds: items.map((item) => item.id),
    },
    tasks: work.tasks.length,
    versions: versions(),
    // a replayed simulator cassette is still the simulator's numbers
    simulated: entries.some((entry) => entry.provider === "sim"),
    startedAt: session.startedAt,
    sessions: [session],
  };
}

/**
 * Runs the tasks still to do over the threads, appending each record and its spans as it finishes; a
 * share that fails stops the others, and every thread is done before the files close.
 */
async function runTasks(
  work: Work,
  options: BenchOptions,
  outage: ModelOutageWatch,
  providers: ShareHooks["providers"],
): Promise<{ finished: number; failures: TaskFailure[] }> {
  const { runId, dir, todo, threads } = work;
  // every append-only file this session continues starts on a clean line
  const tracesFile = join(dir, RUN_FILES.traces);
  truncateTorn(tracesFile, tornTailBytes(tracesFile));
  const appender = new JsonlAppender(join(dir, RUN_FILES.records));
  const tracesAppender = new JsonlAppender(tracesFile);
  const runTracer = startRunTracer(runId, (line) => tracesAppender.append(line));
  const running: BenchProgress["running"] = Object.fromEntries(work.configs.map((config) => [config, { ok: 0, n: 0 }]));
  let finished = 0;
  const spec: ShareSpec = {
    runId,
    request: work.request,
    modelsFile: options.modelsFile,
    resolved: work.resolved,
    items: work.items,
    bfcl: work.bfcl,
    // the queries in flight are spread over the threads
    concurrency: Math.max(1, Math.round(work.concurrency / threads)),
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
      options.onProgress?.({ done: finished, total: todo.length, key: task.key, running });
    },
  };
  try {
    // whole items per thread (all their configurations and repeats), dealt round-robin like shards
    const itemIds = work.items.map((item) => item.id);
    const shares = Array.from({ length: threads }, (_, index) =>
      threads === 1 ? todo : selectShard(todo, { index: index + 1, count: threads }, itemIds),
    );
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
    return { finished, failures: settled.flatMap((result) => (result.status === "fulfilled" ? result.value : [])) };
  } finally {
    appender.close();
    await runTracer.end({ "onsetlab.tasks": finished });
    tracesAppender.close();
  }
}
