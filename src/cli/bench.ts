/**
 * `bench --model M[,M2] [--config C | --matrix NAME] …`: the command users run. Progress goes to stderr;
 * stdout gets the results table, or with --json the summary rows (rates as fractions, intervals beside).
 */

import { resolve } from "node:path";
import Table from "cli-table3";
import type { Command } from "commander";
import type { AgentConfigInput } from "../agent/index.ts";
import { parseFilter } from "../bench/dataset/select.ts";
import { type BenchRequest, modelsOfMatrix, runBench } from "../bench/run/bench.ts";
import type { RunSummary } from "../bench/run/compare-configs.ts";
import { parseShard } from "../bench/run/matrix.ts";
import { customMetrics, ITEM_METRICS, type MetricRates, type Rate, type SummaryRow } from "../bench/scoring/index.ts";
import { OnsetlabError } from "../errors.ts";
import { checkRecordTarget } from "../models/cassette.ts";
import { FlagError, parsePositiveInt, parseTransport } from "./flags.ts";
import { startProgress } from "./progress.ts";

interface BenchFlags {
  model?: string;
  config?: string;
  matrix?: string;
  dataset?: string[];
  filter?: string;
  limit?: string;
  seed: string;
  repeats: string;
  concurrency?: string;
  threads?: string;
  timeout?: string;
  shard?: string;
  resume?: string;
  record?: string;
  append?: boolean;
  replay?: string;
  transport: string;
  models?: string;
  registry?: string;
  strategy?: string;
  filterN?: string;
  exposure?: string;
  json?: boolean;
}

/** A run finished, but some tasks could not be run by the harness: exit 1, resume to retry them. */
export class HarnessFailuresError extends OnsetlabError {}

export function registerBenchCommand(program: Command): void {
  program
    .command("bench")
    .description("run models × configurations over the dataset against the mock servers and score them")
    .option("--model <names>", "model(s), comma-separated: a models.yaml entry, sim:<profile>, or any Ollama model")
    .option("--config <names>", "configuration(s) from models.yaml, comma-separated")
    .option("--matrix <name>", "a matrix from models.yaml (default: its default_matrix)")
    .option("--dataset <paths...>", "dataset files, folders or patterns (default: datasets/*.jsonl)")
    .option("--filter <spec>", "only items matching, e.g. category=single|parallel,server=github")
    .option("--limit <n>", "only the first N items (after --filter)")
    .option("--seed <n>", "seed of the simulator and every random draw", "1")
    .option("--repeats <k>", "run every item K times", "1")
    .option("--concurrency <n>", "queries in flight (default 1; 4 for the simulator over stdio)")
    .option("--threads <n>", "threads running queries: the simulator only (default: one per core for big runs)")
    .option("--timeout <seconds>", "time limit of one query")
    .option("--shard <i/n>", "run only shard i of n (merge with `results merge`)")
    .option("--resume <run-id>", "continue a run: skip its finished records, run the rest")
    .option("--record <file>", "record every model request and answer to a cassette (a new file, or see --append)")
    .option("--append", "with --record: add to a cassette that already holds calls")
    .option("--replay <file>", "answer every model request from a cassette")
    .option("--transport <kind>", "stdio | memory", "memory")
    .option("--models <file>", "a models.yaml other than the repository's")
    .option("--registry <file>", "a registry.json of servers other than mock-servers/registry.json")
    .option("--strategy <name>", "override the strategy of every configuration (auto|rewoo|react|native|jsonl)")
    .option("--filter-n <n>", "override the tool filter of every configuration (a number or all)")
    .option("--exposure <kind>", "override the servers every configuration connects (session|all)")
    .option("--json", "print the summary as JSON for machines")
    .action(async (flags: BenchFlags) => {
      const request = benchRequest(flags);
      const progress = startProgress({ label: "bench", total: 1 });
      let total = 0;
      const controller = new AbortController();
      const stop = () => controller.abort();
      process.once("SIGINT", stop);
      let outcome: Awaited<ReturnType<typeof runBench>>;
      try {
        outcome = await runBench({
          request,
          resume: flags.resume,
          concurrency: flags.concurrency ? parsePositiveInt("--concurrency", flags.concurrency) : undefined,
          threads: flags.threads ? parsePositiveInt("--threads", flags.threads) : undefined,
          modelsFile: flags.models,
          cli: cliOverrides(flags),
          signal: controller.signal,
          onProgress: ({ done, total: all, running }) => {
            if (all !== total) {
              total = all;
              progress.setTotal(all);
            }
            progress.update(done, runningText(running));
          },
        });
      } finally {
        process.off("SIGINT", stop);
        progress.stop();
      }
      const { summary, runId, failures, skipped } = outcome;
      process.stdout.write(flags.json ? `${JSON.stringify(jsonSummary(summary))}\n` : renderTable(summary));
      process.stderr.write(
        `run ${runId}: ${summary.records} records${skipped ? ` (${skipped} from before the resume)` : ""} → results/${runId}/\n`,
      );
      if (failures.length > 0) {
        const first = failures[0]!;
        throw new HarnessFailuresError(
          "HARNESS_FAILURES",
          `${failures.length} tasks could not be run (first: ${first.task.key}: ${first.message}); fix the cause and run with --resume ${runId}`,
        );
      }
    });
}

function benchRequest(flags: BenchFlags): BenchRequest {
  const list = (text: string | undefined) =>
    (text ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean);
  if (flags.config && flags.matrix) throw new FlagError("BAD_FLAG", "give --config or --matrix, not both");
  if (flags.record && flags.replay) throw new FlagError("BAD_FLAG", "give --record or --replay, not both");
  if (flags.append && !flags.record) throw new FlagError("BAD_FLAG", "--append goes with --record FILE");
  // a resume records onto its own cassette, as the run started
  if (flags.record && !flags.resume) checkRecordTarget(flags.record, flags.append === true);
  let models = list(flags.model);
  if (models.length === 0 && flags.matrix) models = modelsOfMatrix(flags.models, flags.matrix) ?? [];
  if (models.length === 0 && !flags.resume) {
    throw new FlagError(
      "BAD_FLAG",
      "--model is required, e.g. --model sim:slm-3b (no weights needed) or --model qwen2.5:3b",
    );
  }
  return {
    models,
    configs: list(flags.config),
    ...(flags.matrix ? { matrix: flags.matrix } : {}),
    dataset: flags.dataset ?? [],
    filter: flags.filter ? parseFilter(flags.filter) : {},
    ...(flags.limit ? { limit: parsePositiveInt("--limit", flags.limit) } : {}),
    seed: parseSeed(flags.seed),
    repeats: parsePositiveInt("--repeats", flags.repeats),
    ...(flags.timeout ? { timeoutS: parsePositiveInt("--timeout", flags.timeout) } : {}),
    ...(flags.shard ? { shard: parseShard(flags.shard) } : {}),
    transport: parseTransport(flags.transport),
    ...(flags.record ? { record: flags.record } : {}),
    ...(flags.replay ? { replay: flags.replay } : {}),
    ...(flags.registry ? { registry: resolve(flags.registry) } : {}),
  };
}

export function parseSeed(text: string): number {
  const seed = Number(text);
  if (!Number.isInteger(seed) || seed < 0)
    throw new FlagError("BAD_FLAG", `--seed must be a whole number ≥ 0, not "${text}"`);
  return seed;
}

const STRATEGIES = ["auto", "rewoo", "react", "native", "jsonl"] as const;

function cliOverrides(flags: BenchFlags): AgentConfigInput {
  const overrides: AgentConfigInput = {};
  if (flags.strategy) {
    if (!(STRATEGIES as readonly string[]).includes(flags.strategy)) {
      throw new FlagError("BAD_FLAG", `--strategy must be one of ${STRATEGIES.join(", ")}, not "${flags.strategy}"`);
    }
    overrides.strategy = flags.strategy as AgentConfigInput["strategy"];
  }
  if (flags.filterN) overrides.filter = flags.filterN === "all" ? "all" : parsePositiveInt("--filter-n", flags.filterN);
  if (flags.exposure) {
    if (flags.exposure !== "session" && flags.exposure !== "all") {
      throw new FlagError("BAD_FLAG", `--exposure must be session or all, not "${flags.exposure}"`);
    }
    overrides.exposure = flags.exposure;
  }
  return overrides;
}

function runningText(running: Record<string, { ok: number; n: number }>): string {
  return Object.entries(running)
    .filter(([, tally]) => tally.n > 0)
    .slice(0, 4)
    .map(([config, tally]) => `${config} ${Math.round((tally.ok / tally.n) * 100)}%`)
    .join(" · ");
}

const pct = (rate: Rate) => (rate.value === null ? "–" : `${(rate.value * 100).toFixed(1)}%`);
const ci = (rate: Rate) =>
  rate.lo === null || rate.hi === null ? "" : ` [${(rate.lo * 100).toFixed(0)}–${(rate.hi * 100).toFixed(0)}]`;
const num = (value: number | null | undefined, digits = 1) =>
  value === null || value === undefined ? "–" : value.toFixed(digits);

function renderTable(summary: RunSummary): string {
  const label = summary.simulated
    ? " (simulated)"
    : summary.replayedFrom
      ? ` (replayed from ${summary.replayedFrom})`
      : "";
  const withRepeats = summary.rows.some((row) => row.repeats);
  const table = new Table({
    head: [
      "model",
      "config",
      "n",
      "task success [95% CI]",
      "tool choice",
      "params",
      "rescue",
      "calls/item",
      "gold shown",
      ...customMetrics().map((metric) => metric.label),
      ...(withRepeats ? ["pass^k [95% CI]", "pass@k"] : []),
      "p50 / p95 ms",
    ],
  });
  for (const row of summary.rows) {
    table.push([
      row.model,
      row.config,
      row.n,
      `${pct(row.taskSuccess)}${ci(row.taskSuccess)}`,
      pct(row.toolChoice),
      pct(row.paramAccuracy),
      row.rescueRate.n > 0 ? `${pct(row.rescueRate)} of ${row.rescueRate.n}` : "–",
      num(row.callsPerItem),
      pct(row.goldVisible),
      ...customMetrics().map((metric) => (row.custom[metric.name] ? pct(row.custom[metric.name]!) : "–")),
      ...(withRepeats ? repeatCells(row) : []),
      `${num(row.p50Ms?.value, 0)} / ${num(row.p95Ms?.value, 0)}`,
    ]);
  }
  return `Results${label}\n${table.toString()}\n`;
}

/** pass^k with its interval and pass@k, with k in the header's place: `k=4 62.0% [55–68]`. */
function repeatCells(row: SummaryRow): string[] {
  if (!row.repeats) return ["–", "–"];
  const { k, passHatK, passAtK } = row.repeats;
  return [`k=${k} ${pct(passHatK)}${ci(passHatK)}`, `${pct(passAtK)}${ci(passAtK)}`];
}

/** The --json shape: `{runId, simulated, rows: [{model, config, n, taskSuccess, taskSuccessCi, …}]}`. */
export function jsonSummary(summary: RunSummary): Record<string, unknown> {
  return {
    runId: summary.runId,
    simulated: summary.simulated,
    ...(summary.replayedFrom ? { replayedFrom: summary.replayedFrom } : {}),
    records: summary.records,
    rows: summary.rows.map(jsonRow),
  };
}

function jsonRow(row: SummaryRow): Record<string, unknown> {
  // every rate field of the metric list (splits included), then the registered metrics' rates
  const listed = ITEM_METRICS.flatMap((metric) => [metric.name, ...Object.keys("split" in metric ? metric.split : {})]);
  const rates: Record<string, Rate> = {
    ...Object.fromEntries(listed.map((name) => [name, row[name as keyof MetricRates]])),
    ...row.custom,
    ...(row.repeats ? { passHatK: row.repeats.passHatK, passAtK: row.repeats.passAtK } : {}),
  };
  const flat: Record<string, unknown> = { model: row.model, config: row.config, n: row.n };
  for (const [name, rate] of Object.entries(rates)) {
    flat[name] = rate.value;
    flat[`${name}Ci`] = rate.lo === null ? null : [rate.lo, rate.hi];
  }
  return {
    ...flat,
    ...(row.repeats ? { repeats: row.repeats.k } : {}),
    callsPerItem: row.callsPerItem,
    modelCallsPerItem: row.modelCallsPerItem,
    promptTokensPerItem: row.promptTokensPerItem,
    completionTokensPerItem: row.completionTokensPerItem,
    writeBlocks: row.writeBlocks,
    p50Ms: row.p50Ms?.value ?? null,
    p50MsCi: row.p50Ms ? [row.p50Ms.lo, row.p50Ms.hi] : null,
    p95Ms: row.p95Ms?.value ?? null,
    p95MsCi: row.p95Ms ? [row.p95Ms.lo, row.p95Ms.hi] : null,
  };
}
