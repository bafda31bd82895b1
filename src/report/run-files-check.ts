/**
 * A run folder's files checked against each other before a report or a gate reads them. summary.json
 * is written at the end of a session from the records; a run killed after a resume, a hand edit or a
 * damaged disk leaves a summary that no longer tells what the records say, and a report of it would
 * publish numbers nothing backs. So: summary.json must have the shape the report reads, be the summary
 * of this run, and count what records.jsonl.gz holds (or outcomes.json, for a kept run without records):
 * the same records, the same model × configurations, each with the same n and k/n of every metric.
 * A folder with neither file has nothing to check the summary against and is read as it is.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { RunSummary } from "../bench/run/compare-configs.ts";
import { upgradeSummary } from "../bench/run/run-format.ts";
import { RUN_FILES, readJsonChecked, runFile } from "../bench/run/store.ts";
import type { Rate } from "../bench/scoring/rate.ts";
import { RunFilesError } from "./errors.ts";
import { BINARY_METRICS, POOLED_METRICS } from "./metrics.ts";
import { binaryRate, decodeBinary, decodePooled, pooledRate, readOutcomesFile, readRunRecords } from "./outcomes.ts";
import type { LoadedRun } from "./run-set.ts";

const count = z.number().int().min(0);
const rate = z.object({ k: z.number(), n: count }).loose();
const metrics = [...BINARY_METRICS, ...POOLED_METRICS].map((metric) => metric.name);

const summarySchema = z
  .object({
    runId: z.string(),
    simulated: z.boolean(),
    records: count,
    rows: z.array(
      z
        .object({
          model: z.string(),
          config: z.string(),
          n: count,
          ...Object.fromEntries(metrics.map((name) => [name, rate])),
        })
        .loose(),
    ),
    ...Object.fromEntries(
      ["byCategory", "byServer", "failures", "routing", "planner", "comparisons"].map((name) => [
        name,
        z.array(z.unknown()),
      ]),
    ),
  })
  .loose();

/** The summary.json of the run folder `dir`, with the fields the report and the gate read. */
export function readSummary(dir: string): RunSummary {
  const file = join(dir, RUN_FILES.summary);
  return upgradeSummary(readJsonChecked<RunSummary>(file, "summary.json", summarySchema), file);
}

/** k/n of each metric for one model × configuration, as the per-item file gives them. */
interface Counted {
  model: string;
  config: string;
  /** Items the rates count: the valid ones. */
  n: number;
  /** Records, invalid items included. */
  records: number;
  rates: Record<string, Rate>;
}

/** Stops with a RunFilesError (exit 2) when the run's summary does not tell what its per-item file says. */
export function checkRunFiles(run: LoadedRun): void {
  const records = runFile(run.dir, "records");
  const outcomes = join(run.dir, RUN_FILES.outcomes);
  if (existsSync(records)) compare(run, countRecords(run, records), records, true);
  else if (existsSync(outcomes)) compare(run, countOutcomes(run, outcomes), outcomes, false);
}

function countRecords(run: LoadedRun, file: string): Counted[] {
  return readRunRecords(run, file).map(({ model, config, scores }) => {
    const recorded = scores.filter((score) => score !== undefined);
    // the summary's rates and n leave invalid items out; its record count does not
    const present = recorded.filter((score) => score.invalid === undefined);
    const rates = Object.fromEntries([
      ...BINARY_METRICS.map((metric) => [metric.name, binaryRate(present.map(metric.of))]),
      ...POOLED_METRICS.map((metric) => [metric.name, pooledRate(present.map(metric.of))]),
    ]);
    return { model, config, n: present.length, records: recorded.length, rates };
  });
}

function countOutcomes(run: LoadedRun, file: string): Counted[] {
  const outcomes = readOutcomesFile(file, run);
  return outcomes.entries.map((entry) => {
    const rates = Object.fromEntries([
      ...BINARY_METRICS.map((metric) => [metric.name, binaryRate(decodeBinary(entry.binary[metric.name]))]),
      ...POOLED_METRICS.map((metric) => [metric.name, pooledRate(decodePooled(entry.pooled[metric.name]))]),
    ]);
    const judged = rates.taskSuccess?.n ?? outcomes.keys.length;
    return { model: entry.model, config: entry.config, n: judged, records: outcomes.keys.length, rates };
  });
}

function compare(run: LoadedRun, counted: readonly Counted[], file: string, fromRecords: boolean): void {
  const summaryFile = join(run.dir, RUN_FILES.summary);
  const { summary, manifest } = run;
  const fix = fromRecords ? `; \`pnpm bench --resume ${manifest.runId}\` rewrites the summary from the records` : "";
  const mismatch = (what: string) =>
    new RunFilesError("RUN_FILES_MISMATCH", `${summaryFile}: ${what}: the summary is not of these records${fix}`, {
      context: { summary: summaryFile, file },
    });
  if (summary.runId !== manifest.runId) {
    throw new RunFilesError(
      "RUN_FILES_MISMATCH",
      `${summaryFile}: the summary of run ${summary.runId}, but run.json is run ${manifest.runId}`,
    );
  }
  const total = counted.reduce((sum, entry) => sum + entry.records, 0);
  if (summary.records !== total) throw mismatch(`counts ${summary.records} records, ${file} has ${total}`);
  const rows = new Map(summary.rows.map((row) => [`${row.model} × ${row.config}`, row]));
  for (const entry of counted) {
    const name = `${entry.model} × ${entry.config}`;
    const row = rows.get(name);
    rows.delete(name);
    if (!row) {
      if (entry.records > 0) throw mismatch(`has no row for ${name}, which has ${entry.records} records in ${file}`);
      continue;
    }
    if (row.n !== entry.n) throw mismatch(`${name} has n = ${row.n}, ${file} has ${entry.n}`);
    for (const metric of metrics) {
      const { k, n } = entry.rates[metric]!;
      const stated = row[metric as keyof typeof row] as { k: number; n: number };
      if (stated.k !== k || stated.n !== n) {
        throw mismatch(`${name} ${metric} is ${stated.k}/${stated.n}, ${file} gives ${k}/${n}`);
      }
    }
  }
  const extra = [...rows.keys()][0];
  if (extra !== undefined) throw mismatch(`has a row for ${extra}, which is not in ${file}`);
}
