/**
 * What the HTTP app and the MCP server both offer, in one place: the models and configurations, the
 * runs under a results folder (list, summary, items paged from the records index, one record expanded,
 * a comparison), dataset queries for the playground, and benches started in this process with their
 * progress. Inputs are checked here; bad ones are ApiErrors (400 naming the field, 404 for unknown ids).
 */

import { existsSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { closeItems } from "../bench/dataset/close-items.ts";
import { loadDataset } from "../bench/dataset/load.ts";
import type { DatasetItem } from "../bench/dataset/types.ts";
import { type BenchProgress, runBench } from "../bench/run/bench.ts";
import type { RunSummary } from "../bench/run/compare-configs.ts";
import { readManifest } from "../bench/run/manifest.ts";
import { modelsOfMatrix } from "../bench/run/resolve-request.ts";
import type { RunManifest } from "../bench/run/run-file-types.ts";
import { listRunIds, RUN_FILES, runFile } from "../bench/run/store.ts";
import { loadModelsConfig, matrixConfigs } from "../config/models-yaml.ts";
import { InputError } from "../errors.ts";
import { isSimulator } from "../models/decide-provenance.ts";
import { simProfileNames } from "../models/sim/catalog.ts";
import { REPO_ROOT } from "../paths.ts";
import { readSummary } from "../report/run-files-check.ts";
import { type ItemDetail, recordChecks, turnChecks } from "./checks.ts";
import { ApiError } from "./errors.ts";
import { checkConfigName, checkModelName } from "./names.ts";
import { RecordCount } from "./record-count.ts";
import { type ItemRow, RecordIndex } from "./record-index.ts";
import { type RunLabel, runLabel } from "./run-label.ts";

export interface ServiceOptions {
  resultsRoot: string;
  modelsFile?: string;
  /** Folders besides the project whose dataset files a bench may name (`--dataset-dir`). */
  datasetDirs?: readonly string[];
}

export interface RunListEntry {
  runId: string;
  models: string[];
  matrix?: string;
  configs: string[];
  items: number;
  tasks: number;
  records: number;
  startedAt: string;
  finishedAt?: string;
  running: boolean;
  label: RunLabel;
  invalid: number;
  /** The dataset's files (names only) and its suite's name, as the runs list shows them. */
  dataset: { files: string[]; suite?: string };
  /** Each model × configuration's task success, once the run has a summary (the runs list shows the range). */
  taskSuccess: { model: string; config: string; value: number | null }[];
}

export interface RunDetail {
  manifest: RunManifest;
  summary: RunSummary | null;
  progress: BenchProgress | null;
  /**
   * The records the items list reads, when the summary counts others (a truncated or damaged records
   * file): the viewer warns that the two disagree. Absent while the run is under way, or when they agree.
   */
  recordsRead?: number;
}

export interface ItemFilter {
  model?: string;
  config?: string;
  category?: string;
  server?: string;
  failure?: string;
  outcome?: "pass" | "fail" | "invalid";
  q?: string;
}

export interface Paging {
  page?: number;
  pageSize?: number;
}

export interface ItemPage {
  total: number;
  page: number;
  pageSize: number;
  rows: Omit<ItemRow, "query">[];
}

export interface CompareRequest extends Paging {
  a: string;
  b: string;
  runB?: string;
  model?: string;
  category?: string;
  server?: string;
  failure?: string;
  only?: "a" | "b" | "differ";
}

interface CompareSide {
  key: string;
  pass: boolean;
  failureClass?: string;
}

export interface CompareRow {
  itemId: string;
  model: string;
  repeat: number;
  category: string;
  servers: string[];
  a: CompareSide;
  b: CompareSide;
}

export interface ComparePage {
  counts: { both: number; aOnly: number; bOnly: number; neither: number };
  total: number;
  page: number;
  pageSize: number;
  rows: CompareRow[];
}

export interface BenchStart {
  models: string[];
  configs?: string[];
  matrix?: string;
  dataset?: string[];
  limit?: number;
  first?: number;
  seed?: number;
  repeats?: number;
}

export interface BenchStatus {
  runId: string;
  running: boolean;
  /** Every task has its record. */
  finished: boolean;
  done: number;
  total: number;
  /** The run stopped with this error. */
  error?: string;
}

/** A bench this process runs: its last progress, and who listens for more. */
interface LiveRun {
  progress: BenchProgress | null;
  finished: boolean;
  /** Stops the bench (stopBenches); what it recorded stays, for `--resume`. */
  stop: AbortController;
  /** Settles when the bench has ended. */
  ended: Promise<void>;
  error?: string;
  listeners: Set<(event: RunEvent) => void>;
}

export type RunEvent =
  | { type: "progress"; progress: BenchProgress }
  | { type: "finished"; runId: string; error?: string };

const RUN_ID = /^[A-Za-z0-9._+-]+$/;
export const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 500;

export class HarnessService {
  readonly resultsRoot: string;
  readonly modelsFile: string | undefined;
  private readonly indexes = new Map<string, RecordIndex>();
  private readonly counts = new Map<string, RecordCount>();
  private readonly live = new Map<string, LiveRun>();
  private datasetItems: DatasetItem[] | undefined;
  /** Where a bench's `dataset` files may be: the project, and the folders given at start. */
  private readonly datasetRoots: string[];

  constructor(options: ServiceOptions) {
    this.resultsRoot = resolve(options.resultsRoot);
    this.modelsFile = options.modelsFile;
    this.datasetRoots = [REPO_ROOT, ...(options.datasetDirs ?? [])].map((dir) => realPath(resolve(dir)));
  }

  // ─── models and configurations ──────────────────────────────────────────────────────────────

  /** The simulator's profiles (`sim:<profile>`: no server, no weights) and the entries of models.yaml, each once. */
  listModels(): { name: string; provider: string; simulated: boolean }[] {
    const entries = Object.values(loadModelsConfig(this.modelsFile).models).map((entry) => ({
      name: entry.name,
      provider: entry.provider,
      simulated: isSimulator(entry),
    }));
    const profiles = simProfileNames()
      .map((profile) => ({ name: `sim:${profile}`, provider: "sim", simulated: true }))
      .filter((sim) => !entries.some((entry) => entry.name === sim.name));
    return [...profiles, ...entries];
  }

  /** Each configuration, the matrices that hold it, and the agent definition it runs (`agent:`), if any. */
  listConfigs(): { name: string; matrix?: string[]; agent?: { file: string; protocol: string; hash: string } }[] {
    const models = loadModelsConfig(this.modelsFile);
    const matrices = this.listMatrices();
    return Object.entries(models.configurations).map(([name, configuration]) => {
      const inMatrices = Object.keys(matrices).filter((matrix) => matrices[matrix]!.includes(name));
      const definition = configuration.definition;
      return {
        name,
        ...(inMatrices.length > 0 ? { matrix: inMatrices } : {}),
        ...(definition
          ? { agent: { file: definition.file, protocol: definition.protocol, hash: definition.hash } }
          : {}),
      };
    });
  }

  listMatrices(): Record<string, string[]> {
    const models = loadModelsConfig(this.modelsFile);
    return Object.fromEntries(Object.keys(models.matrices).map((name) => [name, matrixConfigs(models, name)]));
  }

  /** Dataset queries sharing words with `text` (all of them, in file order, for an empty text). */
  searchQueries(text: string, limit = 10): { id: string; query: string; category: string }[] {
    this.datasetItems ??= loadDataset().map((loaded) => loaded.item);
    const items = this.datasetItems;
    const trimmed = text.trim();
    const lower = trimmed.toLowerCase();
    const matches =
      trimmed === ""
        ? items.slice(0, limit)
        : [
            ...items.filter((item) => item.id === trimmed || item.query.toLowerCase().includes(lower)),
            ...closeItems(items, trimmed, limit),
          ];
    const unique = [...new Map(matches.map((item) => [item.id, item])).values()].slice(0, limit);
    return unique.map((item) => ({ id: item.id, query: item.query, category: item.category }));
  }

  // ─── runs ───────────────────────────────────────────────────────────────────────────────────

  listRuns(): RunListEntry[] {
    return listRunIds(this.resultsRoot).flatMap((runId) => {
      try {
        return [this.runEntry(runId)];
      } catch (error) {
        // a damaged run folder is left out of the list (`pnpm results` names it), not a failed page
        if (error instanceof InputError) return [];
        throw error;
      }
    });
  }

  getRun(runId: string): RunDetail {
    const dir = this.runFolder(runId);
    const summary = existsSync(join(dir, RUN_FILES.summary)) ? readSummary(dir) : null;
    // counted from the file's lines, as the runs list does: the records index is for item pages
    const recordsRead = summary && !this.isRunning(runId) ? this.recordsOnDisk(runId) : undefined;
    return {
      manifest: readManifest(dir),
      summary,
      progress: this.live.get(runId)?.progress ?? null,
      ...(recordsRead !== undefined && recordsRead !== summary?.records ? { recordsRead } : {}),
    };
  }

  listItems(runId: string, filter: ItemFilter, paging: Paging): ItemPage {
    const rows = this.index(runId)
      .rows()
      .filter((row) => matches(row, filter));
    const { page, pageSize, slice } = pageOf(rows, paging);
    return { total: rows.length, page, pageSize, rows: slice.map(({ query: _query, ...row }) => row) };
  }

  getItem(runId: string, key: string): ItemDetail {
    const record = this.index(runId).record(key);
    if (!record) {
      throw new ApiError(404, "UNKNOWN_ITEM", `run ${runId} has no record with the key "${key}"`, { field: "key" });
    }
    return {
      ...record,
      checks: recordChecks(record),
      ...(record.conversation ? { turnChecks: turnChecks(record, record.conversation) } : {}),
    };
  }

  compare(runId: string, request: CompareRequest): ComparePage {
    const left = this.index(runId).rows();
    const right = request.runB === undefined ? left : this.index(request.runB).rows();
    const side = (rows: readonly ItemRow[], config: string) =>
      new Map(rows.filter((row) => row.config === config).map((row) => [pairKey(row), row]));
    const a = side(left, request.a);
    const b = side(right, request.b);
    if (a.size === 0)
      throw new ApiError(400, "UNKNOWN_CONFIGURATION", `run ${runId} has no records of configuration "${request.a}"`, {
        field: "a",
      });
    if (b.size === 0) {
      throw new ApiError(
        400,
        "UNKNOWN_CONFIGURATION",
        `run ${request.runB ?? runId} has no records of configuration "${request.b}"`,
        { field: "b" },
      );
    }
    const counts = { both: 0, aOnly: 0, bOnly: 0, neither: 0 };
    const rows: CompareRow[] = [];
    for (const [pair, rowA] of a) {
      const rowB = b.get(pair);
      if (!rowB) continue;
      if (request.model !== undefined && rowA.model !== request.model) continue;
      if (request.category !== undefined && rowA.category !== request.category) continue;
      if (request.server !== undefined && !rowA.servers.includes(request.server)) continue;
      if (
        request.failure !== undefined &&
        rowA.failureClass !== request.failure &&
        rowB.failureClass !== request.failure
      )
        continue;
      const passA = passes(rowA);
      const passB = passes(rowB);
      if (passA && passB) counts.both += 1;
      else if (passA) counts.aOnly += 1;
      else if (passB) counts.bOnly += 1;
      else counts.neither += 1;
      if (request.only === "a" && !(passA && !passB)) continue;
      if (request.only === "b" && !(passB && !passA)) continue;
      if (request.only === "differ" && passA === passB) continue;
      rows.push({
        itemId: rowA.itemId,
        model: rowA.model,
        repeat: rowA.repeat,
        category: rowA.category,
        servers: rowA.servers,
        a: compareSide(rowA),
        b: compareSide(rowB),
      });
    }
    const { page, pageSize, slice } = pageOf(rows, request);
    return { counts, total: rows.length, page, pageSize, rows: slice };
  }

  // ─── benches of this process ────────────────────────────────────────────────────────────────

  /**
   * A bench's dataset file must lie in the project or a folder given at start (links followed): a
   * request may not make the service read any file it can.
   */
  private checkDatasetPath(path: string): void {
    const full = realPath(resolve(path));
    if (this.datasetRoots.some((root) => full === root || full.startsWith(`${root}${sep}`))) return;
    throw new ApiError(
      400,
      "DATASET_OUTSIDE",
      `dataset: ${path} is outside the project and the folders given at start (--dataset-dir)`,
      { field: "dataset" },
    );
  }

  /** Starts a bench in this process; resolves with its run id once run.json is written. */
  startBench(start: BenchStart): Promise<string> {
    const models =
      start.models.length > 0
        ? start.models
        : start.matrix
          ? (modelsOfMatrix(this.modelsFile, start.matrix) ?? [])
          : [];
    if (models.length === 0)
      throw new ApiError(400, "BAD_REQUEST", "models: give at least one model", { field: "models" });
    const config = loadModelsConfig(this.modelsFile);
    for (const model of models) checkModelName(config, model, "models");
    for (const name of start.configs ?? []) checkConfigName(config, name, "configs");
    for (const path of start.dataset ?? []) this.checkDatasetPath(path);
    if (start.matrix !== undefined && !(start.matrix in config.matrices)) {
      throw new ApiError(400, "UNKNOWN_MATRIX", `matrix: "${start.matrix}" is not a matrix in ${config.file}`, {
        field: "matrix",
      });
    }
    return new Promise((resolveStart, rejectStart) => {
      let runId: string | undefined;
      const stop = new AbortController();
      let ended = () => {};
      const live: LiveRun = {
        progress: null,
        finished: false,
        stop,
        ended: new Promise((resolveEnded) => {
          ended = resolveEnded;
        }),
        listeners: new Set(),
      };
      runBench({
        signal: stop.signal,
        request: {
          models,
          configs: start.configs ?? [],
          ...(start.matrix ? { matrix: start.matrix } : {}),
          dataset: start.dataset ?? [],
          filter: {},
          ...(start.limit ? { limit: start.limit } : {}),
          ...(start.first ? { first: start.first } : {}),
          seed: start.seed ?? 1,
          repeats: start.repeats ?? 1,
          transport: "memory",
        },
        resultsRoot: this.resultsRoot,
        ...(this.modelsFile ? { modelsFile: this.modelsFile } : {}),
        onStarted: (id) => {
          runId = id;
          this.live.set(id, live);
          resolveStart(id);
        },
        onProgress: (progress) => {
          live.progress = progress;
          for (const listener of live.listeners) listener({ type: "progress", progress });
        },
      })
        .then(
          () => this.finish(live, runId),
          (error: unknown) => {
            if (runId === undefined) {
              rejectStart(
                error instanceof InputError ? new ApiError(400, error.code, error.message, { cause: error }) : error,
              );
              return;
            }
            live.error = error instanceof Error ? error.message : String(error);
            this.finish(live, runId);
          },
        )
        .finally(ended);
    });
  }

  /**
   * Stops those of `runIds` still under way in this process (the client that started them went away)
   * and waits for each to end; returns their ids. Each keeps what it recorded and can be resumed
   * (`pnpm bench --resume RUN_ID`).
   */
  async stopBenches(runIds: ReadonlySet<string>, reason: string): Promise<string[]> {
    const running = [...this.live].filter(([runId, live]) => runIds.has(runId) && !live.finished);
    for (const [, live] of running) live.stop.abort(new Error(reason));
    await Promise.all(running.map(([, live]) => live.ended));
    return running.map(([runId]) => runId);
  }

  /** The progress of a run until it finishes; a run not under way finishes at once. Returns the unsubscribe. */
  watchRun(runId: string, listener: (event: RunEvent) => void): () => void {
    this.runFolder(runId);
    const live = this.live.get(runId);
    if (!live || live.finished) {
      listener({ type: "finished", runId, ...(live?.error ? { error: live.error } : {}) });
      return () => {};
    }
    if (live.progress) listener({ type: "progress", progress: live.progress });
    live.listeners.add(listener);
    return () => live.listeners.delete(listener);
  }

  /** Where a run stands: under way in this process (with its progress), finished, or failed. */
  benchStatus(runId: string): BenchStatus {
    const run = this.getRun(runId);
    const live = this.live.get(runId);
    const running = this.isRunning(runId);
    return {
      runId,
      running,
      finished: !running && run.manifest.finishedAt !== undefined,
      done: running ? (live?.progress?.done ?? 0) : this.recordCount(runId, run.manifest, run.summary),
      total: live?.progress?.total ?? run.manifest.tasks,
      ...(live?.error ? { error: live.error } : {}),
    };
  }

  /** Is this run under way in this process? */
  isRunning(runId: string): boolean {
    const live = this.live.get(runId);
    return live !== undefined && !live.finished;
  }

  private finish(live: LiveRun, runId: string | undefined): void {
    live.finished = true;
    if (runId === undefined) return;
    for (const listener of live.listeners)
      listener({ type: "finished", runId, ...(live.error ? { error: live.error } : {}) });
    live.listeners.clear();
  }

  // ─── helpers ────────────────────────────────────────────────────────────────────────────────

  private runEntry(runId: string): RunListEntry {
    const dir = this.runFolder(runId);
    const manifest = readManifest(dir);
    const summary = existsSync(join(dir, RUN_FILES.summary)) ? readSummary(dir) : null;
    const running = this.isRunning(runId);
    const records = this.recordCount(runId, manifest, summary);
    const invalid = (summary?.rows ?? []).reduce(
      (sum, row) => sum + Object.values(row.invalid ?? {}).reduce((a, b) => a + b, 0),
      0,
    );
    return {
      runId,
      models: manifest.models.map((model) => model.name),
      ...(manifest.request.matrix ? { matrix: manifest.request.matrix } : {}),
      configs: manifest.configs,
      items: manifest.dataset.items,
      tasks: manifest.tasks,
      records,
      startedAt: manifest.startedAt,
      ...(manifest.finishedAt ? { finishedAt: manifest.finishedAt } : {}),
      running,
      label: runLabel(manifest.models.map((model) => model.provenance)),
      invalid,
      dataset: {
        files: manifest.dataset.files.map((file) => basename(file)),
        ...(manifest.suite?.name ? { suite: manifest.suite.name } : {}),
      },
      taskSuccess: (summary?.rows ?? []).map((row) => ({
        model: row.model,
        config: row.config,
        value: row.taskSuccess.value,
      })),
    };
  }

  /** The folder of a run directly under the results folder; 404 otherwise (no path leaves it). */
  private runFolder(runId: string): string {
    if (!RUN_ID.test(runId) || runId.startsWith(".")) {
      throw new ApiError(404, "UNKNOWN_RUN", `no run "${runId}": run ids are letters, digits and . _ + -`);
    }
    const dir = resolve(this.resultsRoot, runId);
    if (dirname(dir) !== this.resultsRoot || !existsSync(join(dir, RUN_FILES.run))) {
      throw new ApiError(404, "UNKNOWN_RUN", `no run "${runId}" in the results folder`);
    }
    return dir;
  }

  /**
   * The records on disk: a finished run's summary says; a run not finished (under way here or in another
   * process, or stopped) has its file's lines counted, without the records index a list does not need.
   */
  private recordCount(runId: string, manifest: RunManifest, summary: RunSummary | null): number {
    if (!this.isRunning(runId) && summary && manifest.finishedAt) return summary.records;
    return this.recordsOnDisk(runId);
  }

  private recordsOnDisk(runId: string): number {
    let count = this.counts.get(runId);
    if (!count) {
      count = new RecordCount(runFile(this.runFolder(runId), "records"));
      this.counts.set(runId, count);
    }
    return count.count();
  }

  private index(runId: string): RecordIndex {
    const dir = this.runFolder(runId);
    let index = this.indexes.get(runId);
    if (!index) {
      index = new RecordIndex(runFile(dir, "records"));
      this.indexes.set(runId, index);
    }
    return index;
  }
}

function matches(row: ItemRow, filter: ItemFilter): boolean {
  if (filter.model !== undefined && row.model !== filter.model) return false;
  if (filter.config !== undefined && row.config !== filter.config) return false;
  if (filter.category !== undefined && row.category !== filter.category) return false;
  if (filter.server !== undefined && !row.servers.includes(filter.server)) return false;
  if (filter.failure !== undefined && row.failureClass !== filter.failure) return false;
  if (filter.outcome === "invalid" && row.invalid === undefined) return false;
  if (filter.outcome === "pass" && !passes(row)) return false;
  if (filter.outcome === "fail" && (row.invalid !== undefined || row.taskSuccess)) return false;
  if (filter.q !== undefined && filter.q !== "") {
    const q = filter.q.toLowerCase();
    if (!row.itemId.toLowerCase().includes(q) && !row.query.toLowerCase().includes(q)) return false;
  }
  return true;
}

/** Passed and scored: an invalid item counts as no pass. */
function passes(row: ItemRow): boolean {
  return row.taskSuccess && row.invalid === undefined;
}

function pairKey(row: ItemRow): string {
  return `${row.model}|${row.itemId}|${row.repeat}`;
}

function compareSide(row: ItemRow): CompareSide {
  return { key: row.key, pass: passes(row), ...(row.failureClass ? { failureClass: row.failureClass } : {}) };
}

function pageOf<T>(rows: readonly T[], paging: Paging): { page: number; pageSize: number; slice: T[] } {
  const pageSize = Math.min(paging.pageSize ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  const page = paging.page ?? 1;
  return { page, pageSize, slice: rows.slice((page - 1) * pageSize, page * pageSize) };
}

/** The path with its links resolved, as far as it exists (a missing file keeps its resolved folder). */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realPath(parent), basename(path));
  }
}
