/**
 * `pnpm bench`: resolves what to run (models × configurations × items × repeats; resolve-request.ts), deals
 * the tasks to its threads (each opens its servers once: worker-share.ts, threads.ts), appends each record as it
 * finishes, and writes the summary (summary-file.ts). A resumed run re-reads its own run.json, so it runs
 * exactly the matrix it started with and skips every key already on disk, except the items the model server
 * failed, which it runs again (retry-invalid.ts).
 */

import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { loadBfclDataset } from "../../bfcl/dataset.ts";
import type { ConfigurationInput } from "../../config/configuration.ts";
import { loadModelsConfig, type ModelEntry, type ModelsConfig } from "../../config/models-yaml.ts";
import { InputError } from "../../errors.ts";
import type { ResetKind } from "../../mcp/registry.ts";
import { resetKind } from "../../mcp/registry-entry.ts";
import { isSimulator } from "../../models/decide-provenance.ts";
import { type CacheCounters, type RequestCache, requestCacheAt } from "../../models/request-cache.ts";
import { hash32, seededRandom, shuffled } from "../../random.ts";
import { CONVERSATION_CONFIGS } from "../conversation/task.ts";
import { requireSuiteServers } from "../dataset/known-tools.ts";
import { type ItemSelection, narrowItems, selectItems, selectionHash } from "../dataset/select.ts";
import { type Suite, suiteOf } from "../dataset/suite.ts";
import { type ConversationItem, conversationSessionItem, type DatasetItem } from "../dataset/types.ts";
import { loadMetricModules } from "../scoring/metric-registry.ts";
import { isBfclDataset } from "./bfcl-environment.ts";
import { multiTurnDatasetOf } from "./bfcl-multi-turn-environment.ts";
import type { RunSummary } from "./compare-configs.ts";
import type { TaskFailure } from "./execute.ts";
import { readManifest } from "./manifest.ts";
import { expandMatrix, selectShard, type Task } from "./matrix.ts";
import { type ModelProbe, probeModels } from "./model-facts.ts";
import { ModelOutageWatch } from "./model-outage.ts";
import { itemGold, providerCache, resolveEntries, runGold, serverSlots } from "./providers.ts";
import {
  checkResumeDefinitions,
  configNames,
  contextOf,
  describeModel,
  itemCount,
  requestRegistry,
  resolveAll,
  threadCount,
  versions,
  withInjectedFiles,
  withProbe,
  withRequestAgents,
  withSuiteDefaults,
} from "./resolve-request.ts";
import { dropRecords, serverFailed } from "./retry-invalid.ts";
import type { BenchRequest, CacheUse, RunManifest, StoredRecord } from "./run-file-types.ts";
import { forEachRunRecord, RUN_FORMAT } from "./run-format.ts";
import { harnessRedactor } from "./secrets.ts";
import { startRunTracer } from "./spans.ts";
import { continueRunFile, newRunId, RUN_FILES, RunWriteError, runDir, runFile, writeJsonAtomic } from "./store.ts";
import { writeSummary } from "./summary-file.ts";
import { runShareInThread } from "./threads.ts";
import { type ObservedTask, SequentialMonitor } from "./until-significant.ts";
import { runShare, type ShareHooks, type ShareSpec } from "./worker-share.ts";

export interface BenchOptions {
  request: BenchRequest;
  /** Continue this run (its run.json decides the matrix; `request` only lends concurrency). */
  resume?: string;
  /** With `resume`: keep the records that went invalid on a server error instead of running them again. */
  keepInvalid?: boolean;
  concurrency?: number;
  /** Threads that run tasks (the simulator only; default: one per core for a big simulator run). */
  threads?: number;
  modelsFile?: string;
  resultsRoot: string;
  /** CLI flags over the configuration axes (highest precedence). */
  cli?: ConfigurationInput;
  /**
   * The request cache's folder (the CLI's default: `defaultCacheDir()`, none with `--no-cache`). Only
   * real models are cached, and not under `--replay`.
   */
  cacheDir?: string;
  onProgress?: (progress: BenchProgress) => void;
  /** The run's id and folder, once run.json is written (a stop signal's message names them), and its plan. */
  onStarted?: (runId: string, dir: string, plan: RunPlan) => void;
  /** One line about the run that is worth a user's attention (a server that is never reset). */
  onWarning?: (line: string) => void;
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

/**
 * What a session runs: `todo` of the run's `tasks`. `skipped` tasks already have their record; `retried` of
 * the todo had one that the model server failed, which the session drops and runs again.
 */
export interface RunPlan {
  tasks: number;
  todo: number;
  skipped: number;
  retried: number;
}

export interface BenchOutcome extends Pick<RunPlan, "skipped" | "retried"> {
  runId: string;
  dir: string;
  manifest: RunManifest;
  summary: RunSummary;
  failures: TaskFailure[];
}

/** What a request resolves to: the models, configurations and items, and the tasks still to run. */
export interface Work {
  request: BenchRequest;
  previous?: RunManifest;
  entries: ModelEntry[];
  configs: string[];
  items: DatasetItem[];
  /** A dataset of conversations: each item is one (its session item), run turn by turn. */
  conversations?: ConversationItem[];
  files: string[];
  /** The dataset's suite (its clock, servers and default exposure); none for BFCL or a dataset without one. */
  suite?: Suite;
  bfcl: boolean;
  runId: string;
  dir: string;
  resolved: RunManifest["resolved"];
  /** Every task of this run (its shard's, when sharded). */
  tasks: Task[];
  /** The tasks not yet on disk, and those whose record a resume runs again (`retry`). */
  todo: Task[];
  /** Keys of the records that went invalid on a server error: a resume drops them and runs their tasks again. */
  retry: ReadonlySet<string>;
  /** `--until-significant`: the outcomes already on disk (a resume), in the order they were recorded. */
  recorded: ObservedTask[];
  concurrency: number;
  threads: number;
  /** How each server is reset between tasks. */
  resets: Record<string, ResetKind | "mock">;
}

export async function runBench(options: BenchOptions): Promise<BenchOutcome> {
  const models = loadModelsConfig(options.modelsFile);
  await loadMetricModules(models.metricModules);
  const work = resolveWork(options, models);
  try {
    return await runWork(work, options);
  } catch (error) {
    // a full disk or an I/O error: every record written stays, and a resume continues from them
    if (error instanceof RunWriteError && existsSync(join(work.dir, RUN_FILES.run))) throw error.withResume(work.runId);
    throw error;
  }
}

async function runWork(work: Work, options: BenchOptions): Promise<BenchOutcome> {
  for (const line of isolationWarnings(work, options)) options.onWarning?.(line);
  const { request, previous, entries, runId, dir, tasks, todo } = work;
  const monitor = request.untilSignificant
    ? new SequentialMonitor(request.untilSignificant, work.items.length)
    : undefined;
  for (const task of work.recorded) monitor?.observe(task);
  // a resume of a comparison decided before it stopped has nothing left to run, nor to run again
  const decidedBefore = monitor?.outcome.decision !== undefined;
  const retried = decidedBefore ? 0 : work.retry.size;
  const skipped = tasks.length - todo.length;
  const plan: RunPlan = { tasks: tasks.length, todo: todo.length, skipped, retried };
  const session: RunManifest["sessions"][number] = {
    startedAt: new Date().toISOString(),
    tasksRun: 0,
    harnessFailures: 0,
    threads: work.threads,
    ...(retried > 0 ? { retried } : {}),
  };
  const manifest: RunManifest = previous
    ? { ...previous, finishedAt: undefined, sessions: [...previous.sessions, session] }
    : newManifest(work, session);
  // made before anything is written: a bad model name or endpoint is bad input, not a half-made run
  const outage = new ModelOutageWatch();
  const cache = requestCacheOf(options.cacheDir, entries, request);
  const before = cache && { ...cache.counters };
  // the session tells a resume's cassette lines from the run's (a replay passes over the failures it re-ran)
  const providerRequest = { ...request, session: manifest.sessions.length - 1 };
  const providers = providerCache(entries, runGold(work), providerRequest, outage, cache, itemGold(work));
  for (const entry of entries) providers(entry.name, 0);
  let probes: Record<string, ModelProbe>;
  try {
    probes = await probeModels(entries, providers, work.resolved);
  } catch (error) {
    // nothing dropped yet: the records to run again are still on disk
    throw outage.stoppedRun(runId, skipped + work.retry.size) ?? error;
  }
  if (!previous) {
    manifest.models = manifest.models.map((model) => withProbe(model, probes[model.name]));
  }
  writeJsonAtomic(join(dir, RUN_FILES.run), manifest);
  options.onStarted?.(runId, dir, plan);

  const { finished, failures } = decidedBefore
    ? { finished: 0, failures: [] }
    : await runTasks(work, options, outage, providers, monitor).catch((error: unknown) => {
        // bad input found once the servers are up (a server that will not start, a state check on a write
        // tool): no task ran, so a new run leaves no folder behind
        if (!previous && error instanceof InputError) rmSync(dir, { recursive: true, force: true });
        throw error;
      });
  const stopped = outage.stoppedRun(runId, skipped + finished);
  if (stopped) {
    if (!previous && finished === 0) rmSync(dir, { recursive: true, force: true });
    throw stopped;
  }
  const decided = monitor?.outcome.decision !== undefined;
  // a decided comparison stopped the queries in flight on purpose: they are not the harness's failures
  const harnessFailures = decided ? failures.filter((failure) => !failure.interrupted) : failures;
  if (monitor) manifest.sequential = monitor.outcome;
  session.tasksRun = finished;
  session.harnessFailures = harnessFailures.length;
  if (cache && before) session.cache = cacheUse(cache, before);
  const summary = writeSummary(dir, manifest, new Map(work.items.map((item) => [item.id, item])));
  session.finishedAt = new Date().toISOString();
  if (summary.records === tasks.length || decided) manifest.finishedAt = session.finishedAt;
  writeJsonAtomic(join(dir, RUN_FILES.run), manifest);
  return { runId, dir, manifest, summary, failures: harnessFailures, skipped, retried };
}

function requestCacheOf(
  dir: string | undefined,
  entries: readonly ModelEntry[],
  request: BenchRequest,
): RequestCache | undefined {
  if (!dir || request.replay || entries.every(isSimulator)) return undefined;
  return requestCacheAt(dir);
}

/** This session's share of the process's cache counters. */
function cacheUse(cache: RequestCache, before: CacheCounters): CacheUse {
  const { hits, misses, coalesced, damaged } = cache.counters;
  return {
    dir: cache.dir,
    hits: hits - before.hits,
    misses: misses - before.misses,
    coalesced: coalesced - before.coalesced,
    ...(damaged > before.damaged ? { damaged: damaged - before.damaged } : {}),
  };
}

/**
 * A `bfcl:` spec names categories, not files: its single-turn questions as items, or (multi-turn
 * categories) its entries as conversations, one item each, each run on its own environments (share.ts).
 */
function bfclSelection(request: BenchRequest): ItemSelection {
  const multiTurn = multiTurnDatasetOf(request.dataset);
  if (multiTurn && request.dryRun)
    throw new InputError(
      "BAD_FLAG",
      "--dry-run: BFCL's checker grades a multi-turn entry by the state its calls leave, which a dry run never changes: run it without --dry-run",
    );
  if (!multiTurn) {
    return {
      items: narrowItems(loadBfclDataset(request.dataset[0]!).items, request.filter, itemCount(request)),
      files: request.dataset,
    };
  }
  const { conversations } = multiTurn;
  const items = narrowItems(conversations.map(conversationSessionItem), request.filter, itemCount(request));
  const chosen = new Set(items.map((item) => item.id));
  return {
    items,
    files: request.dataset,
    conversations: conversations.filter((conversation) => chosen.has(conversation.id)),
  };
}

/** Resolves the request (a resume's own) and reads which tasks are already on disk; writes nothing. */
export function resolveWork(options: BenchOptions, yamlModels: ModelsConfig): Work {
  const root = options.resultsRoot;
  const previous = options.resume ? readManifest(runDir(options.resume, root)) : undefined;
  const request = previous?.request ?? options.request;
  if ((request.record || request.replay) && request.repeats > 1) {
    // a cassette keys a request by what was sent, not by the simulator's per-repeat seed
    throw new InputError(
      "BAD_FLAG",
      "--record and --replay work with --repeats 1 only (a cassette cannot tell repeats apart)",
    );
  }
  const { models, agentNames } = withRequestAgents(yamlModels, request);
  const entries = resolveEntries(models, request);
  const bfcl = isBfclDataset(request.dataset);
  const registry = requestRegistry(request);
  const resets = bfcl ? {} : Object.fromEntries(registry.servers.map((entry) => [entry.name, resetKind(entry)]));
  if (bfcl && request.dataset.length !== 1) {
    throw new InputError(
      "BAD_FLAG",
      "--dataset bfcl:<category>[,<category>…] is one spec, not mixed with dataset files",
    );
  }
  const selection: ItemSelection = bfcl
    ? bfclSelection(request)
    : selectItems(request.dataset, request.filter, itemCount(request), registry);
  const { items, files, conversations } = selection;
  if (request.userModel !== undefined && !conversations) {
    throw new InputError(
      "BAD_FLAG",
      "--user-model plays the user of a conversation: give --dataset a file of conversations",
    );
  }
  // a dataset of conversations runs, by default, the configurations that hold one
  const configs =
    conversations && request.configs.length === 0 && !request.matrix && agentNames.length === 0
      ? [...CONVERSATION_CONFIGS]
      : configNames(models, request, agentNames);
  if (previous && previous.dataset.hash !== selectionHash(selection)) {
    throw new InputError(
      "RESUME_DATASET_CHANGED",
      `--resume ${previous.runId}: the dataset changed since the run started (hash ${previous.dataset.hash} → ${selectionHash(selection)}); start a new run`,
    );
  }
  const suite = bfcl ? undefined : suiteOf(files);
  if (suite) requireSuiteServers(suite, items, registry);
  const runId = previous?.runId ?? newRunId(request.models.join("+"));
  const dir = runDir(runId, root);
  const itemIds = items.map((item) => item.id);
  if (request.untilSignificant) checkSequential(request, configs, options.threads);
  const allTasks = expandMatrix({
    models: request.models,
    configs,
    // a sequential comparison looks at items in a random order, so any prefix is a fair sample
    itemIds: request.untilSignificant ? shuffled(itemIds, seededRandom(request.seed)) : itemIds,
    repeats: request.repeats,
  });
  const tasks = request.shard ? selectShard(allTasks, request.shard, itemIds) : allTasks;
  const done = new Set<string>();
  const retry = new Set<string>();
  const recorded: ObservedTask[] = [];
  // a torn end is not a record (runTasks cuts it off before appending)
  forEachRunRecord(runFile(dir, "records"), (record) => {
    if (!options.keepInvalid && serverFailed(record)) {
      retry.add(record.key);
      return;
    }
    done.add(record.key);
    if (request.untilSignificant) recorded.push(observedTask(record));
  });
  const pending = tasks.filter((task) => !done.has(task.key));
  // `--shuffle SEED`: the tasks in a seeded order of their own; with isolated servers, scores do not move
  const todo =
    request.shuffle === undefined
      ? pending
      : shuffled(pending, seededRandom(hash32(`shuffle\u0000${request.shuffle}`)));
  // Real models: one query at a time, so latencies are honest. The simulator in memory is pure CPU:
  // concurrency in one thread only interleaves (measured slower), threads do the work in parallel; over
  // stdio the servers work in processes of their own, so queries in flight overlap.
  const simulated = entries.every(isSimulator);
  // a reset command puts back state the pools share (on disk): their queries must not overlap
  const shared = Object.values(resets).includes("command");
  const resolved = withInjectedFiles(
    resolveAll(withSuiteDefaults(models, suite), entries, configs, options.cli, request.timeoutS),
    request.files,
  );
  if (previous) checkResumeDefinitions(previous, resolved);
  return {
    request,
    ...(previous ? { previous } : {}),
    entries,
    configs,
    items,
    ...(conversations ? { conversations } : {}),
    files,
    ...(suite ? { suite } : {}),
    bfcl,
    runId,
    dir,
    resolved,
    tasks,
    todo,
    retry,
    recorded,
    concurrency: shared
      ? 1
      : (options.concurrency ?? (simulated && request.transport === "stdio" ? 4 : serverSlots(entries))),
    threads: shared || request.untilSignificant ? 1 : threadCount(options.threads, entries, request, todo.length),
    resets,
  };
}

/** `--until-significant A,B` compares two configurations of the run on one model, one repeat, whole. */
function checkSequential(request: BenchRequest, configs: readonly string[], threads: number | undefined): void {
  const { a, b } = request.untilSignificant!;
  const fail = (problem: string) => {
    throw new InputError("BAD_FLAG", `--until-significant ${a},${b}: ${problem}`);
  };
  for (const name of [a, b])
    if (!configs.includes(name)) fail(`"${name}" is not a configuration of this run (${configs.join(", ")})`);
  if (a === b) fail("name two different configurations");
  if (request.models.length !== 1) fail("compares configurations of one model: give one --model");
  if (request.repeats !== 1) fail("works with --repeats 1 (each item is one pair)");
  if (request.shard) fail("cannot be sharded: the decision needs every look's items in one run");
  if (threads !== undefined && threads > 1) fail("runs on one thread (the looks need the items in order)");
}

function observedTask(record: StoredRecord): ObservedTask {
  return {
    config: record.config,
    itemId: record.itemId,
    taskSuccess: record.score.taskSuccess,
    invalid: record.score.invalid !== undefined,
  };
}

/** What the user should know about how the servers are isolated between tasks. */
function isolationWarnings(work: Work, options: BenchOptions): string[] {
  const named = (kind: string) => Object.keys(work.resets).filter((server) => work.resets[server] === kind);
  const plural = (names: string[]) => `server${names.length > 1 ? "s" : ""} ${names.join(", ")}`;
  const unreset = named("none");
  const commands = named("command");
  const warnings: string[] = [];
  if (unreset.length > 0) {
    warnings.push(`${plural(unreset)} never reset (reset: none): results may depend on the order of the tasks`);
  }
  if (commands.length > 0 && ((options.concurrency ?? 1) > 1 || (options.threads ?? 1) > 1)) {
    warnings.push(`${plural(commands)} reset by a command (state on disk, shared): queries run one at a time`);
  }
  return warnings;
}

function newManifest(work: Work, session: RunManifest["sessions"][number]): RunManifest {
  const { request, entries, items } = work;
  return {
    format: RUN_FORMAT,
    runId: work.runId,
    request,
    models: entries.map((entry) => describeModel(entry, request)),
    configs: work.configs,
    resolved: work.resolved,
    ...(work.suite ? { suite: work.suite } : {}),
    dataset: {
      ...(work.conversations ? { kind: "conversations" as const } : {}),
      files: work.files,
      hash: selectionHash(work),
      items: items.length,
      itemIds: items.map((item) => item.id),
    },
    tasks: work.tasks.length,
    versions: versions(),
    // a replayed simulator cassette is still the simulator's numbers
    simulated: entries.some(isSimulator),
    startedAt: session.startedAt,
    sessions: [session],
    ...(Object.keys(work.resets).length > 0 ? { resets: work.resets } : {}),
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
  monitor: SequentialMonitor | undefined,
): Promise<{ finished: number; failures: TaskFailure[] }> {
  const { runId, dir, todo, threads } = work;
  const dropped = dropRecords(dir, work.retry);
  if (dropped.outcomesRemoved) {
    options.onWarning?.(
      `${join(dir, RUN_FILES.outcomes)} removed: it held the outcomes of the records now run again (pnpm report --write-outcomes writes it anew)`,
    );
  }
  // every append-only file this session continues starts on a whole gzip member
  const redactor = harnessRedactor(options.modelsFile, work.request.registries);
  const appender = continueRunFile(dir, "records", redactor);
  const tracesAppender = continueRunFile(dir, "traces", redactor);
  const runTracer = startRunTracer(runId, (line) => tracesAppender.append(line));
  const running: BenchProgress["running"] = Object.fromEntries(work.configs.map((config) => [config, { ok: 0, n: 0 }]));
  let finished = 0;
  const spec: ShareSpec = {
    runId,
    request: work.request,
    modelsFile: options.modelsFile,
    resolved: work.resolved,
    items: work.items,
    ...(work.conversations ? { conversations: work.conversations } : {}),
    bfcl: work.bfcl,
    // the queries in flight are spread over the threads
    concurrency: Math.max(1, Math.round(work.concurrency / threads)),
    ...(work.suite?.servers ? { servers: work.suite.servers } : {}),
    ...contextOf(work.suite),
    spanParent: runTracer.parent,
  };
  const stopShares = new AbortController();
  let writeFailure: unknown;
  const hooks: ShareHooks = {
    signal: AbortSignal.any([outage.signal, stopShares.signal, ...(options.signal ? [options.signal] : [])]),
    outage,
    providers,
    onFinished: (task) => {
      try {
        appender.appendBytes(task.recordLine);
        tracesAppender.appendBytes(task.spanLines);
      } catch (error) {
        // a full disk: the run stops here (a task's own error handling must not take it for the task's)
        writeFailure ??= error;
        stopShares.abort(error);
        return;
      }
      const tally = running[task.config]!;
      if (!task.invalid) {
        tally.n += 1;
        if (task.taskSuccess) tally.ok += 1;
      }
      finished += 1;
      options.onProgress?.({ done: finished, total: todo.length, key: task.key, running });
      if (monitor?.observe(task)) stopShares.abort(new Error("the --until-significant comparison is decided"));
    },
  };
  // both files closed whatever happens; a failed last write (a full disk) is the run's error
  const closeRunFiles = async () => {
    let closeFailure: unknown;
    const attempt = async (close: () => unknown) => {
      try {
        await close();
      } catch (error) {
        closeFailure ??= error;
      }
    };
    await attempt(() => appender.close());
    await attempt(() => runTracer.end({ "onsetlab.tasks": finished }));
    await attempt(() => tracesAppender.close());
    if (closeFailure !== undefined) throw closeFailure;
  };
  let settled: PromiseSettledResult<TaskFailure[]>[];
  try {
    // whole items per thread (all their configurations and repeats), dealt round-robin like shards
    const itemIds = work.items.map((item) => item.id);
    const shares = Array.from({ length: threads }, (_, index) =>
      threads === 1 ? todo : selectShard(todo, { index: index + 1, count: threads }, itemIds),
    );
    settled = await Promise.allSettled(
      shares.map((share, index) =>
        (index === 0 ? runShare(spec, share, hooks) : runShareInThread(spec, share, hooks)).catch((error: unknown) => {
          stopShares.abort(error);
          throw error;
        }),
      ),
    );
  } catch (error) {
    await closeRunFiles().catch(() => {});
    throw error;
  }
  await closeRunFiles();
  if (writeFailure) throw writeFailure;
  const failed = settled.find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
  return { finished, failures: settled.flatMap((result) => (result.status === "fulfilled" ? result.value : [])) };
}
