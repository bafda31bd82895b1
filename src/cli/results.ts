/**
 * `results list`: the runs under results/, newest first, with how far each got. `results merge RUN…`:
 * the shards of one matrix into one new run (src/bench/run/merge.ts). `results show` (results-show.ts);
 * `results rm` and `results prune` (src/bench/run/remove.ts).
 */

import type { Command } from "commander";
import { readManifest } from "../bench/run/manifest.ts";
import { mergeRuns } from "../bench/run/merge.ts";
import { pruneRuns, removeRuns } from "../bench/run/remove.ts";
import type { RunManifest } from "../bench/run/run-file-types.ts";
import { countRows, listRunIds, resultsRoot, runDir, runFile } from "../bench/run/store.ts";
import { InputError } from "../errors.ts";
import type { ModelProvenance } from "../models/provenance.ts";
import { shownPath } from "../report/paths.ts";
import { showRun } from "./results-show.ts";
import { compactTable } from "./table.ts";

export interface RunListing {
  id: string;
  models: string[];
  configs: string[];
  items: number;
  /** Records on disk. */
  records: number;
  /** Records the run's matrix (or shard) has. */
  planned: number;
  simulated: boolean;
  /** Whose answers each model's numbers are (run.json). */
  provenance: ModelProvenance[];
  startedAt: string;
  /** Null while the run is incomplete (killed, interrupted, or still running). */
  finishedAt: string | null;
  shard?: string;
  mergedFrom?: string[];
}

/** A run folder whose run.json cannot be read: listed with the reason, never fatal to the listing. */
export interface UnreadableRun {
  id: string;
  problem: string;
}

export function listRuns(root: string): (RunListing | UnreadableRun)[] {
  return listRunIds(root).map((id) => {
    const dir = runDir(id, root);
    let manifest: RunManifest;
    let records: number;
    try {
      manifest = readManifest(dir);
      records = countRows(runFile(dir, "records"));
    } catch (error) {
      return { id, problem: (error as Error).message };
    }
    const { request } = manifest;
    return {
      id,
      models: request.models,
      configs: manifest.configs,
      items: manifest.dataset.items,
      records,
      planned: manifest.tasks,
      simulated: manifest.simulated,
      provenance: manifest.models.map((model) => ({ model: model.name, provenance: model.provenance })),
      startedAt: manifest.startedAt,
      finishedAt: manifest.finishedAt ?? null,
      ...(request.shard ? { shard: `${request.shard.index}/${request.shard.count}` } : {}),
      ...(manifest.mergedFrom ? { mergedFrom: manifest.mergedFrom } : {}),
    };
  });
}

export function registerResultsCommands(program: Command): void {
  const results = program.command("results").description("runs under results/: list, show, merge shards, remove");
  results
    .command("list")
    .description("every run, newest first: models, configurations, items, records done / planned, finished or not")
    .option("--json", "print JSON for machines")
    .action((flags: { json?: boolean }) => {
      const runs = listRuns(resultsRoot());
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(runs)}\n`);
        return;
      }
      process.stdout.write(renderListing(runs));
    });
  results
    .command("merge")
    .description("merge the shards of one matrix (--shard i/n runs) into one new run")
    .argument("<runs...>", "run ids under results/")
    .option("--out <run-id>", "the merged run's id (default: a new one)")
    .option("--json", "print the outcome as JSON")
    .action((runIds: string[], flags: { out?: string; json?: boolean }) => {
      const merged = mergeRuns({ runIds, root: resultsRoot(), ...(flags.out ? { outId: flags.out } : {}) });
      for (const folder of merged.removedLeftovers) {
        process.stderr.write(`removed ${folder}: what a merge left when it was stopped midway\n`);
      }
      const { runId, records, duplicates, complete, manifest } = merged;
      if (flags.json) {
        process.stdout.write(
          `${JSON.stringify({ runId, dir: merged.dir, mergedFrom: runIds, records, planned: manifest.tasks, duplicates, complete })}\n`,
        );
        return;
      }
      const state = complete
        ? "complete"
        : `incomplete: ${records} of ${manifest.tasks} (run the rest with --resume ${runId})`;
      process.stdout.write(
        `merged ${runIds.length} runs → ${shownPath(merged.dir, process.cwd())}/: ${records} records` +
          `${duplicates > 0 ? ` (${duplicates} duplicates dropped)` : ""}, ${state}\n`,
      );
    });
  registerHousekeeping(results);
}

function registerHousekeeping(results: Command): void {
  results
    .command("show")
    .description("a run's header (models, configurations, items, invalid counts); with --item, one record readably")
    .argument("<run>", "run id under results/ (calibration/ID for a committed one)")
    .option(
      "--item <key>",
      "the record with this key: query, route, tools, full prompts, outputs, plan, tool calls, score",
    )
    .option("--json", "print JSON: run.json, or with --item the record with every prompt spelled out")
    .action((runId: string, flags: { item?: string; json?: boolean }) => {
      process.stdout.write(showRun(runId, flags));
    });
  results
    .command("rm")
    .description("delete runs (never one under results/calibration/)")
    .argument("<runs...>", "run ids under results/")
    .action((runIds: string[]) => {
      for (const dir of removeRuns(runIds, resultsRoot())) process.stdout.write(`removed ${dir}\n`);
    });
  results
    .command("prune")
    .description("delete every run but the newest N (results/calibration/ is never touched)")
    .requiredOption("--keep <n>", "how many of the newest runs to keep")
    .option("--dry-run", "print what would be removed, remove nothing")
    .action((flags: { keep: string; dryRun?: boolean }) => {
      const keep = Number(flags.keep);
      if (!Number.isInteger(keep) || keep < 0) {
        throw new InputError("BAD_FLAG", `--keep ${flags.keep}: expected a whole number ≥ 0`);
      }
      const removed = pruneRuns(keep, { dryRun: flags.dryRun ?? false, root: resultsRoot() });
      const verb = flags.dryRun ? "would remove" : "removed";
      for (const runId of removed) process.stdout.write(`${verb} ${runId}\n`);
      if (removed.length === 0) process.stdout.write(`nothing to remove: ${keep} or fewer runs\n`);
    });
}

/** Within 100 columns: the run id names its models and start time, so the table leaves them out. */
function renderListing(runs: readonly (RunListing | UnreadableRun)[]): string {
  if (runs.length === 0) return `no runs under ${resultsRoot()}: run \`pnpm bench --model sim:slm-3b\` first\n`;
  const table = compactTable({
    head: ["run", "sim", "configs", "items", "records", "finished"],
    colAligns: ["left", "left", "right", "right", "right", "left"],
  });
  const incomplete: string[] = [];
  for (const run of runs) {
    if ("problem" in run) {
      table.push([run.id, { colSpan: 5, content: `unreadable: ${run.problem}` }]);
      continue;
    }
    const origin = run.shard
      ? ` (shard ${run.shard})`
      : run.mergedFrom
        ? ` (merged from ${run.mergedFrom.length})`
        : "";
    if (!run.finishedAt) incomplete.push(`incomplete, to finish: pnpm bench --resume ${run.id}`);
    table.push([
      `${run.id}${origin}`,
      run.simulated
        ? "yes"
        : run.provenance.some(({ provenance }) => provenance.kind === "stand-in")
          ? "stand-in"
          : "no",
      run.configs.length,
      run.items,
      `${run.records}/${run.planned}`,
      run.finishedAt ? minutes(run.finishedAt) : "incomplete",
    ]);
  }
  return `${[table.toString(), ...incomplete].join("\n")}\n`;
}

/** `2026-11-23T03:20:44.123Z` → `2026-11-23 03:20Z`. */
function minutes(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}Z`;
}
