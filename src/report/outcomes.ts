/**
 * Per-item outcomes of a run: for every model × configuration, each metric's result on each item ×
 * repeat, in a compact text form. They are what a paired test needs (the gate's baseline keeps them;
 * `report --compare` pairs two runs by them), and they let a run folder be kept without its large
 * records.jsonl.gz: `outcomes.json` beside run.json and summary.json is enough for the report, the gate
 * and comparisons.
 *
 * Encoding, aligned to `keys` (`itemId#repeat`): a binary metric is one character per key — `1`
 * true, `0` false, `.` does not apply; a pooled metric is `k/n` per key, space-separated.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import type { RunRecord } from "../bench/run/run-file-types.ts";
import { forEachRunRecord } from "../bench/run/run-format.ts";
import { RUN_FILES, runFile, writeJsonAtomic } from "../bench/run/store.ts";
import { pooledRateOf, type Rate, rateOf } from "../bench/scoring/rate.ts";
import { OutcomesError } from "./errors.ts";
import { BINARY_METRICS, type BinaryMetric, POOLED_METRICS, type PooledMetric } from "./metrics.ts";
import type { LoadedRun } from "./run-set.ts";

export const OUTCOMES_FORMAT = "onsetlab-outcomes/1";

export interface OutcomeEntry {
  model: string;
  config: string;
  binary: Record<BinaryMetric, string>;
  pooled: Record<PooledMetric, string>;
}

/** Outcomes of one or more runs over the same keys. */
export interface Outcomes {
  keys: string[];
  entries: OutcomeEntry[];
}

export interface OutcomesFile extends Outcomes {
  format: typeof OUTCOMES_FORMAT;
  runId: string;
}

export type BinaryValue = boolean | null;
export type PooledValue = [k: number, n: number];

export const pairKey = (itemId: string, repeat: number): string => `${itemId}#${repeat}`;

/** The run's keys: every item in dataset order, each repeat. */
export function runKeys(run: LoadedRun): string[] {
  const repeats = run.manifest.request.repeats;
  return run.manifest.dataset.itemIds.flatMap((id) =>
    Array.from({ length: repeats }, (_, repeat) => pairKey(id, repeat)),
  );
}

export function encodeBinary(values: readonly BinaryValue[]): string {
  return values.map((value) => (value === null ? "." : value ? "1" : "0")).join("");
}

export function decodeBinary(text: string): BinaryValue[] {
  return [...text].map((char) => (char === "." ? null : char === "1"));
}

export function encodePooled(values: readonly PooledValue[]): string {
  return values.map(([k, n]) => `${k}/${n}`).join(" ");
}

export function decodePooled(text: string): PooledValue[] {
  if (text === "") return [];
  return text.split(" ").map((pair) => {
    const [k, n] = pair.split("/").map(Number);
    return [k!, n!];
  });
}

/** k/n over the items where the metric applies, as summary.json counts it. */
export function binaryRate(values: readonly BinaryValue[]): Rate {
  return rateOf(values, (value) => value);
}

export function pooledRate(values: readonly PooledValue[]): Rate {
  return pooledRateOf(values, (value) => value);
}

/**
 * A run's outcomes: from its records when the run has them (streamed: records of a full matrix run run
 * to hundreds of MB uncompressed; a torn end counts as missing records), else from outcomes.json. Every task
 * of the run must have its record.
 */
export function loadOutcomes(run: LoadedRun): OutcomesFile {
  const records = runFile(run.dir, "records");
  if (existsSync(records)) return outcomesFromRecords(run, records);
  const file = join(run.dir, RUN_FILES.outcomes);
  if (existsSync(file)) return readOutcomesFile(file, run);
  throw new OutcomesError(
    "NO_OUTCOMES",
    `run ${run.id}: neither ${RUN_FILES.records} nor ${RUN_FILES.outcomes} in ${run.dir}; the per-item outcomes are needed`,
  );
}

/** A model × configuration of a run, and the score of each of the run's keys that has a record. */
export interface RecordedEntry {
  model: string;
  config: string;
  scores: (RunRecord["score"] | undefined)[];
}

/**
 * Streams a run's records (records.jsonl.gz, or an older run's records.jsonl) into its model × configurations (in run.json's order), checking each
 * record belongs to the run's matrix and comes once; a bad line is named by file:line.
 */
export function readRunRecords(run: LoadedRun, file: string): RecordedEntry[] {
  const keys = runKeys(run);
  const index = new Map(keys.map((key, position) => [key, position]));
  const perEntry = new Map<string, RecordedEntry>();
  for (const model of run.manifest.models) {
    for (const config of run.manifest.configs) {
      perEntry.set(`${model.name}|${config}`, { model: model.name, config, scores: new Array(keys.length) });
    }
  }
  const lines = new Map<string, number>();
  forEachRunRecord(file, (record, line) => {
    if (typeof record?.score !== "object" || record.score === null || typeof record.key !== "string") {
      throw new OutcomesError("RECORD_INVALID", `${file}:${line}: not a record (expected key, model, config, score)`);
    }
    const entry = perEntry.get(`${record.model}|${record.config}`);
    const position = index.get(pairKey(record.itemId, record.repeat));
    if (!entry || position === undefined) {
      throw new OutcomesError(
        "RECORD_NOT_IN_RUN",
        `${file}:${line}: record ${record.key} is not in the run's matrix (run.json)`,
      );
    }
    const earlier = lines.get(record.key);
    if (earlier !== undefined) {
      throw new OutcomesError("RECORD_DUPLICATE", `${file}:${line}: record ${record.key} is also at line ${earlier}`);
    }
    lines.set(record.key, line);
    entry.scores[position] = record.score;
  });
  return [...perEntry.values()];
}

export function outcomesFromRecords(run: LoadedRun, file: string): OutcomesFile {
  const keys = runKeys(run);
  const entries = readRunRecords(run, file).map(({ model, config, scores }) => {
    const missing = keys.filter((_, position) => scores[position] === undefined);
    if (missing.length > 0) {
      throw new OutcomesError(
        "RUN_INCOMPLETE",
        `run ${run.id}: ${model} × ${config} has no record for ${missing.length} of ${keys.length} items ` +
          `(first: ${missing[0]}); finish it with \`pnpm bench --resume ${run.id}\``,
      );
    }
    const complete = scores as RunRecord["score"][];
    return {
      model,
      config,
      binary: Object.fromEntries(
        // an invalid item (a call the harness could not measure fairly) counts in no rate, as in the summary
        BINARY_METRICS.map((metric) => [
          metric.name,
          encodeBinary(complete.map((score) => (score.invalid ? null : metric.of(score)))),
        ]),
      ) as Record<BinaryMetric, string>,
      pooled: Object.fromEntries(
        POOLED_METRICS.map((metric) => [
          metric.name,
          encodePooled(complete.map((score) => (score.invalid ? [0, 0] : (metric.of(score) as PooledValue)))),
        ]),
      ) as Record<PooledMetric, string>,
    };
  });
  return { format: OUTCOMES_FORMAT, runId: run.id, keys, entries };
}

/** Writes results/<run>/outcomes.json. */
export function writeOutcomesFile(run: LoadedRun, outcomes: OutcomesFile): string {
  const file = join(run.dir, RUN_FILES.outcomes);
  writeJsonAtomic(file, outcomes);
  return file;
}

const entrySchema = {
  type: "object",
  required: ["model", "config", "binary", "pooled"],
  properties: {
    model: { type: "string" },
    config: { type: "string" },
    binary: {
      type: "object",
      required: BINARY_METRICS.map((metric) => metric.name),
      additionalProperties: { type: "string", pattern: "^[01.]*$" },
    },
    pooled: {
      type: "object",
      required: POOLED_METRICS.map((metric) => metric.name),
      additionalProperties: { type: "string", pattern: "^(\\d+/\\d+( \\d+/\\d+)*)?$" },
    },
  },
} as const;

/** The JSON Schema of outcomes (shared with the baseline file, which embeds them). */
export const OUTCOMES_SCHEMA = {
  type: "object",
  required: ["keys", "entries"],
  properties: {
    keys: { type: "array", items: { type: "string" } },
    entries: { type: "array", items: entrySchema },
  },
} as const;

const validateOutcomesFile = new Ajv({ allErrors: true }).compile({
  ...OUTCOMES_SCHEMA,
  required: ["format", "runId", ...OUTCOMES_SCHEMA.required],
  properties: { ...OUTCOMES_SCHEMA.properties, format: { const: OUTCOMES_FORMAT }, runId: { type: "string" } },
});

export function readOutcomesFile(file: string, run: LoadedRun): OutcomesFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (cause) {
    throw new OutcomesError("OUTCOMES_INVALID", `${file}: not valid JSON (${(cause as Error).message})`, { cause });
  }
  if (!validateOutcomesFile(parsed)) {
    const errors = (validateOutcomesFile.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message}`);
    throw new OutcomesError("OUTCOMES_INVALID", `${file}: ${errors.slice(0, 3).join("; ")}`);
  }
  const outcomes = parsed as OutcomesFile;
  checkAligned(outcomes, file);
  if (outcomes.runId !== run.id || outcomes.keys.join(",") !== runKeys(run).join(",")) {
    throw new OutcomesError(
      "OUTCOMES_MISMATCH",
      `${file}: outcomes of run ${outcomes.runId}, not of ${run.id}'s items`,
    );
  }
  return outcomes;
}

/** Every encoded string has one value per key (a hand edit or a truncated file otherwise). */
export function checkAligned(outcomes: Outcomes, file: string): void {
  for (const entry of outcomes.entries) {
    for (const [metric, text] of Object.entries(entry.binary)) {
      if (text.length !== outcomes.keys.length) {
        throw new OutcomesError(
          "OUTCOMES_MISALIGNED",
          `${file}: ${entry.model} × ${entry.config} ${metric} has ${text.length} values for ${outcomes.keys.length} keys`,
        );
      }
    }
    for (const [metric, text] of Object.entries(entry.pooled)) {
      const count = decodePooled(text).length;
      if (count !== outcomes.keys.length) {
        throw new OutcomesError(
          "OUTCOMES_MISALIGNED",
          `${file}: ${entry.model} × ${entry.config} ${metric} has ${count} values for ${outcomes.keys.length} keys`,
        );
      }
    }
  }
}

/** Outcomes of several runs over the same items as one. */
export function mergeOutcomes(list: readonly OutcomesFile[]): Outcomes {
  const first = list[0]!;
  for (const other of list.slice(1)) {
    if (other.keys.join(",") !== first.keys.join(",")) {
      throw new OutcomesError(
        "OUTCOMES_DIFFERENT_ITEMS",
        `runs ${first.runId} and ${other.runId} cover different items or repeats: their outcomes cannot be read as one`,
      );
    }
  }
  return { keys: first.keys, entries: list.flatMap((outcomes) => outcomes.entries) };
}
