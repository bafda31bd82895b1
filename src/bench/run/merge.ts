/**
 * `results merge`: the shards of one matrix (`--shard i/n` runs: the same request but for the shard,
 * the same dataset) into one new run. Records are deduplicated by key — the same key twice is kept once
 * when the contents agree (timing aside, record-content.ts) and is an error when they do not; traces are
 * concatenated; run.json carries every shard's sessions; summary.json is recomputed from the records.
 * The new run is written in a staging folder renamed into place at the end: a merge that fails leaves
 * nothing behind, one that is killed leaves only the staging folder, which the next merge removes.
 */

import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../../errors.ts";
import { canonicalJson } from "../../json.ts";
import { selectItems, selectionHash } from "../dataset/select.ts";
import type { RunSummary } from "./compare-configs.ts";
import { readManifest } from "./manifest.ts";
import { contentHash } from "./record-content.ts";
import { itemCount, requestRegistry } from "./resolve-request.ts";
import type { BenchRequest, RunManifest } from "./run-file-types.ts";
import { forEachRunRecord } from "./run-format.ts";
import { forEachJsonl, JsonlGzAppender, newRunId, RUN_FILES, runDir, runFile, writeJsonAtomic } from "./store.ts";
import { writeSummary } from "./summary-file.ts";

/** Runs that cannot be merged (different matrices or datasets, conflicting records, a bad --out). */
export class MergeError extends InputError {}

export interface MergeOptions {
  runIds: readonly string[];
  /** The merged run's id (default: a new one). */
  outId?: string;
  root: string;
}

export interface MergeOutcome {
  runId: string;
  dir: string;
  manifest: RunManifest;
  summary: RunSummary;
  /** Records written (one per key). */
  records: number;
  /** Records dropped because an earlier run had the same key with the same content. */
  duplicates: number;
  /** Every task of the matrix has its record. */
  complete: boolean;
  /** Staging folders of earlier merges that were stopped midway, removed before this one. */
  removedLeftovers: string[];
}

export interface SourceRun {
  id: string;
  dir: string;
  manifest: RunManifest;
}

export function mergeRuns(options: MergeOptions): MergeOutcome {
  const { root } = options;
  if (new Set(options.runIds).size < 2) {
    throw new MergeError(
      "MERGE_TOO_FEW",
      `results merge needs at least two different runs, got ${options.runIds.length}`,
    );
  }
  const sources = options.runIds.map((id): SourceRun => {
    const dir = runDir(id, root);
    return { id, dir, manifest: readManifest(dir) };
  });
  const first = sources[0]!;
  for (const other of sources.slice(1)) checkSameMatrix(first, other);

  const request = unsharded(first.manifest.request);
  const selection = selectItems(request.dataset, request.filter, itemCount(request), requestRegistry(request));
  const { items } = selection;
  if (selectionHash(selection) !== first.manifest.dataset.hash) {
    throw new MergeError(
      "MERGE_DATASET_CHANGED",
      `the dataset changed since run ${first.id} (hash ${first.manifest.dataset.hash} → ${selectionHash(selection)}): its summary cannot be recomputed`,
    );
  }

  const runId = options.outId ?? newRunId(request.models.join("+"));
  if (!/^[A-Za-z0-9._+-]+$/.test(runId)) {
    throw new MergeError("MERGE_BAD_OUT", `--out must be a run id (letters, digits, . _ + -), not "${runId}"`);
  }
  const dir = runDir(runId, root);
  if (existsSync(dir))
    throw new MergeError("MERGE_OUT_EXISTS", `--out ${runId}: ${dir} already exists; pick another id`);
  const removedLeftovers = removeStoppedMerges(root);
  const staging = runDir(`${STAGING_PREFIX}${runId}`, root);
  if (existsSync(staging)) {
    throw new MergeError(
      "MERGE_IN_PROGRESS",
      `--out ${runId}: another merge (pid ${stagingOwner(staging)}) is writing ${staging}; wait for it, or delete that folder if it is not running`,
    );
  }

  // everything is written to the staging folder, which becomes the run only when whole
  try {
    mkdirSync(staging, { recursive: true });
    writeFileSync(join(staging, OWNER_FILE), `${process.pid}\n`);
    const { records, duplicates } = copyRecords(sources, join(staging, RUN_FILES.records));
    copyTraces(sources, join(staging, RUN_FILES.traces));
    const manifest = mergedManifest(runId, request, sources, records);
    // the summary notes in the manifest the windows the records used: run.json is written after it
    const summary = writeSummary(staging, manifest, new Map(items.map((item) => [item.id, item])));
    writeJsonAtomic(join(staging, RUN_FILES.run), manifest);
    rmSync(join(staging, OWNER_FILE));
    renameSync(staging, dir);
    return {
      runId,
      dir,
      manifest,
      summary,
      records,
      duplicates,
      complete: records === manifest.tasks,
      removedLeftovers,
    };
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}

/** A merge writes `results/.merging-<run-id>/` and renames it to `results/<run-id>/` when done. */
export const STAGING_PREFIX = ".merging-";
const OWNER_FILE = "merge.pid";

/** The pid of the merge writing a staging folder (undefined: unknown, e.g. killed before writing it). */
function stagingOwner(staging: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(join(staging, OWNER_FILE), "utf8"), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the staging folders of merges that were stopped (killed, or the machine went down): their
 * process is gone. Returns the folders removed. A folder whose merge still runs is left alone.
 */
export function removeStoppedMerges(root: string): string[] {
  if (!existsSync(root)) return [];
  const removed: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (!entry.isDirectory() || !entry.name.startsWith(STAGING_PREFIX)) continue;
    const staging = join(root, entry.name);
    const owner = stagingOwner(staging);
    if (owner !== undefined && isRunning(owner)) continue;
    rmSync(staging, { recursive: true, force: true });
    removed.push(staging);
  }
  return removed;
}

/** The request without its shard: what every shard of one matrix has in common. */
export function unsharded(request: BenchRequest): BenchRequest {
  const { shard: _shard, ...rest } = request;
  return rest;
}

/** Refuses a run of another matrix or dataset, naming what differs. */
export function checkSameMatrix(first: SourceRun, other: SourceRun): void {
  const a = unsharded(first.manifest.request);
  const b = unsharded(other.manifest.request);
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])] as (keyof BenchRequest)[];
  const differing = keys
    .filter((key) => canonicalJson(a[key]) !== canonicalJson(b[key]))
    .map((key) => `${key} ${show(a[key])} vs ${show(b[key])}`);
  if (canonicalJson(first.manifest.resolved) !== canonicalJson(other.manifest.resolved)) {
    differing.push("the resolved configurations (flags such as --strategy or --filter-n, or models.yaml)");
  }
  if (differing.length > 0) {
    throw new MergeError(
      "MERGE_DIFFERENT_MATRIX",
      `runs ${first.id} and ${other.id} are not shards of one matrix: ${differing.join("; ")}`,
    );
  }
  if (first.manifest.dataset.hash !== other.manifest.dataset.hash) {
    throw new MergeError(
      "MERGE_DIFFERENT_DATASET",
      `runs ${first.id} and ${other.id} were made on different datasets (hash ${first.manifest.dataset.hash} vs ${other.manifest.dataset.hash})`,
    );
  }
}

function show(value: unknown): string {
  return value === undefined ? "(none)" : JSON.stringify(value);
}

function copyRecords(sources: readonly SourceRun[], file: string): { records: number; duplicates: number } {
  const seen = new Map<string, { run: string; hash: string }>();
  const out = new JsonlGzAppender(file);
  let duplicates = 0;
  try {
    for (const source of sources) {
      // a torn end (a killed shard) is not a record: forEachJsonl leaves it out
      forEachRunRecord(runFile(source.dir, "records"), (record) => {
        const hash = contentHash(record);
        const earlier = seen.get(record.key);
        if (!earlier) {
          seen.set(record.key, { run: source.id, hash });
          out.append(record);
        } else if (earlier.hash === hash) {
          duplicates += 1;
        } else {
          throw new MergeError(
            "MERGE_RECORD_CONFLICT",
            `key ${record.key} has different records in runs ${earlier.run} and ${source.id}; merge only shards of one run`,
            { context: { key: record.key, runs: [earlier.run, source.id] } },
          );
        }
      });
    }
  } finally {
    out.close();
  }
  return { records: seen.size, duplicates };
}

function copyTraces(sources: readonly SourceRun[], file: string): void {
  const out = new JsonlGzAppender(file);
  try {
    for (const source of sources) forEachJsonl(runFile(source.dir, "traces"), (span) => out.append(span));
  } finally {
    out.close();
  }
}

function mergedManifest(
  runId: string,
  request: BenchRequest,
  sources: readonly SourceRun[],
  records: number,
): RunManifest {
  const first = sources[0]!.manifest;
  const sessions = sources
    .flatMap((source) => source.manifest.sessions)
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  const tasks = request.models.length * first.configs.length * first.dataset.items * request.repeats;
  const finishedAt = sources
    .map((source) => source.manifest.finishedAt)
    .filter((at): at is string => at !== undefined)
    .sort()
    .at(-1);
  return {
    ...first,
    runId,
    request,
    tasks,
    simulated: sources.some((source) => source.manifest.simulated),
    startedAt: sessions[0]?.startedAt ?? first.startedAt,
    finishedAt: records === tasks ? finishedAt : undefined,
    sessions,
    mergedFrom: sources.map((source) => source.id),
  };
}
