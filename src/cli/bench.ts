/**
 * `bench --model M[,M2] [--config C | --matrix NAME] …`: the command users run. Progress goes to stderr;
 * stdout gets the results table, or with --json the summary rows (rates as fractions, intervals beside).
 */

import { resolve } from "node:path";
import type { Command } from "commander";
import { EXPOSURES } from "../bench/dataset/exposure.ts";
import { parseFilter } from "../bench/dataset/select.ts";
import { type BenchOptions, type RunPlan, runBench } from "../bench/run/bench.ts";
import type { RunSummary } from "../bench/run/compare-configs.ts";
import { estimateRun } from "../bench/run/estimate.ts";
import { parseShard } from "../bench/run/matrix.ts";
import { modelsOfMatrix } from "../bench/run/resolve-request.ts";
import type { BenchRequest } from "../bench/run/run-file-types.ts";
import { resultsRoot } from "../bench/run/store.ts";
import { sequentialText } from "../bench/run/until-significant.ts";
import { ITEM_METRICS, type MetricRates } from "../bench/scoring/metrics.ts";
import type { Rate } from "../bench/scoring/rate.ts";
import type { SummaryRow } from "../bench/scoring/summarize.ts";
import { readAgentFile } from "../config/agent-file.ts";
import type { ConfigurationInput } from "../config/configuration.ts";
import { OnsetlabError } from "../errors.ts";
import { checkRecordTarget } from "../models/cassette.ts";
import { defaultCacheDir } from "../models/request-cache.ts";
import { INVALID_LIMIT, invalidText, rowsOverInvalidLimit } from "../report/invalid.ts";
import { textCallWarnings } from "../report/text-calls.ts";
import { FAULTS_ENV, type FaultConfig, parseFaults } from "../tool-protocol/faults.ts";
import { benchEndLines } from "./bench-end.ts";
import { conversationText } from "./conversation-text.ts";
import { durationText, estimateText } from "./estimate-text.ts";
import { ModelEta } from "./eta.ts";
import {
  FlagError,
  parseChoice,
  parseFraction,
  parsePositiveInt,
  parseTransport,
  REGISTRY_FLAG,
  repeated,
} from "./flags.ts";
import { startProgress } from "./progress.ts";
import { StopOnSignal } from "./stop-signal.ts";
import { renderSummaryTable } from "./summary-table.ts";
import { terminalWidth, ttyWidth } from "./table.ts";

interface BenchFlags {
  model?: string;
  userModel?: string;
  config?: string;
  matrix?: string;
  dataset?: string[];
  filter?: string;
  limit?: string;
  first?: string;
  seed: string;
  repeats: string;
  concurrency?: string;
  threads?: string;
  timeout?: string;
  shard?: string;
  resume?: string;
  keepInvalid?: boolean;
  record?: string;
  append?: boolean;
  replay?: string;
  faults?: string;
  transport: string;
  models?: string;
  registry?: string[];
  shuffle?: string;
  strategy?: string;
  filterN?: string;
  exposure?: string;
  numCtx?: string;
  allowInvalid?: boolean;
  untilSignificant?: string;
  alpha: string;
  margin?: string;
  looks: string;
  agentFile?: string;
  agent?: string[];
  files?: string[];
  dryRun?: boolean;
  estimate?: boolean;
  json?: boolean;
  /** `--no-cache` makes it false. */
  cache: boolean;
}

/** A run finished, but some tasks could not be run by the harness: exit 1, resume to retry them. */
export class HarnessFailuresError extends OnsetlabError {}

/** More than INVALID_LIMIT of a row's items could not be scored, and --allow-invalid was not given: exit 1. */
export class TooManyInvalidError extends OnsetlabError {}

export function registerBenchCommand(program: Command): void {
  program
    .command("bench")
    .description("run models × configurations over the dataset against the mock servers and score them")
    .option("--model <names>", "model(s), comma-separated: a models.yaml entry, sim:<profile>, or any Ollama model")
    .option("--config <names>", "configuration(s) from models.yaml, comma-separated")
    .option("--matrix <name>", "a matrix from models.yaml (default: its default_matrix)")
    .option(
      "--dataset <paths...>",
      "dataset files, folders or patterns (default: datasets/*.jsonl), or BFCL categories: bfcl:simple,live_simple,… or bfcl:multi_turn_base,… (bfcl:multi_turn: all four, as conversations)",
    )
    .option("--filter <spec>", "only items matching, e.g. category=single|parallel,server=github")
    .option("--limit <n>", "N items sampled over the categories with the seed (after --filter)")
    .option("--first <n>", "the first N items in file order (after --filter)")
    .option("--seed <n>", "seed of the simulator and every random draw", "1")
    .option("--repeats <k>", "run every item K times", "1")
    .option("--concurrency <n>", "queries in flight (default 1; 4 for the simulator over stdio)")
    .option("--threads <n>", "threads running queries: the simulator only (default: one per core for big runs)")
    .option("--timeout <seconds>", "time limit of one query")
    .option("--shard <i/n>", "run only shard i of n (merge with `results merge`)")
    .option(
      "--resume <run-id>",
      "continue a run: skip its finished records, run the rest and again the items the model server failed (server_error)",
    )
    .option("--keep-invalid", "with --resume: keep the server_error records instead of running their items again")
    .option("--record <file>", "record every model request and answer to a cassette (a new file, or see --append)")
    .option("--append", "with --record: add to a cassette that already holds calls")
    .option("--replay <file>", "answer every model request from a cassette")
    .option("--transport <kind>", "stdio | memory", "memory")
    .option(
      "--faults <json>",
      `fault injection on every mock server, either transport, e.g. '{"transientRate":0.1,"seed":1}' (default: $${FAULTS_ENV})`,
    )
    .option("--models <file>", "a models.yaml other than the repository's")
    .option(REGISTRY_FLAG.flags, REGISTRY_FLAG.description, repeated)
    .option(
      "--user-model <name>",
      "conversations: this model plays the user when the agent asks (default: the scripted user, no model)",
    )
    .option("--shuffle <seed>", "run the tasks in this seed's order (with isolated servers, scores do not move)")
    .option("--strategy <name>", "override the strategy of every configuration (auto|rewoo|react|native|jsonl)")
    .option("--filter-n <n>", "override the tool filter of every configuration (a number or all)")
    .option("--exposure <kind>", "override the servers every configuration connects (own|session|all)")
    .option("--num-ctx <n>", "the context window of every request to Ollama (default: models.yaml, `auto`)")
    .option("--allow-invalid", "exit 0 even when more than 5% of a row's items are invalid")
    .option("--until-significant <a,b>", "items in random order; stop once configurations A and B are known to differ")
    .option("--alpha <p>", "with --until-significant: the error rate of the whole sequential test", "0.05")
    .option("--margin <d>", "with --until-significant: also stop once |B − A| is known to be below d (e.g. 0.05)")
    .option("--looks <n>", "with --until-significant: how many times the comparison is tested", "10")
    .option("--agent-file <file>", "benchmark an exported agent file (its model and configuration; pnpm export)")
    .option("--agent <files...>", "agent definition(s) (agents/<name>.md): each a configuration, named by it")
    .option("--files <paths...>", "files injected into the agent definitions' prompts ({{ files }})")
    .option("--dry-run", "write tools answer with previews instead of running; end state is not measured")
    .option(
      "--estimate",
      "print the model calls, tokens, cache hits and ETA the run needs (a simulator dry pass and one timed request), run nothing",
    )
    .option("--json", "print the summary as JSON for machines")
    .option("--no-cache", "send every model request to the server (default: answer repeats from the request cache)")
    .action(async (rawFlags: BenchFlags) => {
      const flags = withAgentFile(rawFlags);
      const request = benchRequest(flags);
      if (flags.keepInvalid && !flags.resume)
        throw new FlagError("BAD_FLAG", "--keep-invalid goes with --resume RUN_ID");
      const planned = {
        resultsRoot: resultsRoot(),
        request,
        resume: flags.resume,
        ...(flags.keepInvalid ? { keepInvalid: true } : {}),
        concurrency: flags.concurrency ? parsePositiveInt("--concurrency", flags.concurrency) : undefined,
        threads: flags.threads ? parsePositiveInt("--threads", flags.threads) : undefined,
        modelsFile: flags.models,
        cli: cliOverrides(flags),
        ...(flags.cache ? { cacheDir: defaultCacheDir() } : {}),
      };
      if (flags.estimate) {
        const estimate = await estimateRun(planned);
        const { taskMs: _perTask, ...shown } = estimate;
        process.stdout.write(flags.json ? `${JSON.stringify(shown)}\n` : estimateText(estimate, ttyWidth()));
        return;
      }
      const eta = await realRunEta(planned);
      const progress = startProgress({
        label: "bench",
        total: 1,
        ...(eta ? { eta: (_done: number, elapsedS: number) => eta.secondsLeft(elapsedS) } : {}),
      });
      let total = 0;
      const controller = new AbortController();
      const stop = new StopOnSignal(controller);
      const outcome = await runBench({
        ...planned,
        signal: controller.signal,
        onStarted: (runId, dir, plan) => {
          stop.started(runId, dir);
          if (flags.resume) process.stderr.write(`${resumeText(runId, plan)}\n`);
        },
        onWarning: (line) => process.stderr.write(`warning: ${line}\n`),
        onProgress: ({ done, total: all, key, running }) => {
          if (all !== total) {
            total = all;
            progress.setTotal(all);
          }
          eta?.finished(key);
          progress.update(done, runningText(running));
        },
      })
        .finally(() => {
          progress.stop();
          stop.dispose();
        })
        .catch((error: unknown) => {
          stop.exitIfStopped();
          throw error;
        });
      stop.exitIfStopped();
      const { summary, runId, failures, skipped, retried, manifest, dir } = outcome;
      const cache = manifest.sessions.at(-1)?.cache;
      const resumed = flags.resume ? { resumed: { skipped, retried } } : {};
      process.stdout.write(
        flags.json
          ? `${JSON.stringify({ ...jsonSummary(summary), ...resumed, ...(cache ? { cache } : {}) })}\n`
          : summary.conversations
            ? conversationText(summary.conversations, summary.simulated)
            : renderSummaryTable(summary, terminalWidth()),
      );
      // the table prints them under itself; --json keeps stdout for the JSON
      if (flags.json) for (const line of textCallWarnings(summary.rows)) process.stderr.write(`${line}\n`);
      if (summary.sequential) process.stderr.write(`${sequentialText(summary.sequential)}\n`);
      const before = [
        ...(skipped ? [`${skipped} from before the resume`] : []),
        ...(retried ? [`${retried} run again after a server error`] : []),
      ];
      const provenance = manifest.models.map((model) => model.provenance);
      const userModel = summary.conversations?.userModel;
      process.stderr.write(
        `${benchEndLines({ runId, dir, records: summary.records, before, provenance, ...(userModel ? { userModel } : {}) }).join("\n")}\n`,
      );
      if (cache) {
        process.stderr.write(
          `request cache ${cache.dir}: ${cache.hits} answered from it, ${cache.misses} sent, ${cache.coalesced} joined one in flight${cache.damaged ? `, ${cache.damaged} damaged (sent again)` : ""}\n`,
        );
      }
      if (failures.length > 0) {
        const first = failures[0]!;
        throw new HarnessFailuresError(
          "HARNESS_FAILURES",
          `${failures.length} tasks could not be run (first: ${first.task.key}: ${first.message}); fix the cause and run with --resume ${runId}`,
        );
      }
      checkInvalid(summary, flags.allowInvalid === true);
    });
}

/** The line a resume starts with: what it runs, and how many of those items the server failed before. */
function resumeText(runId: string, plan: RunPlan): string {
  const again =
    plan.retried > 0
      ? `, re-running ${plan.retried} item${plan.retried === 1 ? "" : "s"} the model server failed (server_error; --keep-invalid keeps them)`
      : "";
  return `resuming run ${runId}: ${plan.skipped} of ${plan.tasks} tasks kept, ${plan.todo} to run${again}`;
}

/**
 * A run against a real server gets its ETA from the estimate's model (a dry pass and one timed request,
 * a few seconds before the first task); the simulator and a replay keep the rate's ETA. Best effort: when
 * the estimate fails (bad flags, a server not answering) the run itself reports why, in its own words.
 */
async function realRunEta(options: BenchOptions): Promise<ModelEta | undefined> {
  const real = options.request.models.some((model) => !model.startsWith("sim:"));
  if (!real || options.request.replay || options.resume) return undefined;
  try {
    const estimate = await estimateRun(options);
    if (estimate.etaMs === undefined) return undefined;
    process.stderr.write(`estimated ${durationText(estimate.etaMs)} for ${estimate.tasks} tasks\n`);
    return new ModelEta(estimate.taskMs);
  } catch {
    return undefined;
  }
}

/** Fails a run with a row over the invalid limit (the line names each such row), unless allowed. */
export function checkInvalid(summary: RunSummary, allowInvalid: boolean): void {
  const over = rowsOverInvalidLimit(summary.rows);
  if (over.length === 0 || allowInvalid) return;
  throw new TooManyInvalidError(
    "TOO_MANY_INVALID",
    `more than ${INVALID_LIMIT * 100}% of the items are invalid in ${over.map(invalidText).join("; ")}: ` +
      "their numbers measure the server's limits, not the model (see README, Running against a real server); " +
      "pass --allow-invalid to accept them",
  );
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
    ...(flags.first ? { first: parsePositiveInt("--first", flags.first) } : {}),
    seed: parseSeed(flags.seed),
    repeats: parsePositiveInt("--repeats", flags.repeats),
    ...(flags.timeout ? { timeoutS: parsePositiveInt("--timeout", flags.timeout) } : {}),
    ...(flags.shard ? { shard: parseShard(flags.shard) } : {}),
    transport: parseTransport(flags.transport),
    ...(flags.record ? { record: flags.record } : {}),
    ...(flags.replay ? { replay: flags.replay } : {}),
    ...faultsOf(flags.faults),
    ...(flags.numCtx ? { numCtx: parsePositiveInt("--num-ctx", flags.numCtx) } : {}),
    ...(flags.registry ? { registries: flags.registry.map((file) => resolve(file)) } : {}),
    ...(flags.shuffle === undefined ? {} : { shuffle: parseSeed(flags.shuffle, "--shuffle") }),
    ...(flags.dryRun ? { dryRun: true } : {}),
    ...(flags.agent ? { agents: flags.agent.map((file) => resolve(file)) } : {}),
    ...(flags.files ? { files: flags.files.map((file) => resolve(file)) } : {}),
    ...(flags.userModel ? { userModel: flags.userModel } : {}),
    ...sequentialOf(flags, list),
  };
}

function sequentialOf(flags: BenchFlags, list: (text: string | undefined) => string[]): Partial<BenchRequest> {
  if (flags.untilSignificant === undefined) {
    if (flags.margin !== undefined) throw new FlagError("BAD_FLAG", "--margin goes with --until-significant A,B");
    return {};
  }
  const pair = list(flags.untilSignificant);
  if (pair.length !== 2) {
    throw new FlagError(
      "BAD_FLAG",
      `--until-significant takes two configurations, A,B, not "${flags.untilSignificant}"`,
    );
  }
  return {
    untilSignificant: {
      a: pair[0]!,
      b: pair[1]!,
      alpha: parseFraction("--alpha", flags.alpha),
      ...(flags.margin === undefined ? {} : { margin: parseFraction("--margin", flags.margin) }),
      looks: parsePositiveInt("--looks", flags.looks),
    },
  };
}

/**
 * `--agent-file F`: the file is the models file (one model, one configuration: models-yaml.ts reads agent
 * files), and its `dry_run` adds `--dry-run`. The other flags apply as usual.
 */
function withAgentFile(flags: BenchFlags): BenchFlags {
  if (!flags.agentFile) return flags;
  const clash = (["model", "config", "matrix", "models", "resume", "agent"] as const).find(
    (flag) => flags[flag] !== undefined,
  );
  if (clash) {
    throw new FlagError("BAD_FLAG", `--agent-file gives the model and configuration: leave out --${clash}`);
  }
  const agent = readAgentFile(flags.agentFile);
  return {
    ...flags,
    model: agent.model.name,
    config: agent.config,
    models: resolve(flags.agentFile),
    dryRun: flags.dryRun === true || agent.dry_run,
  };
}

/** `--faults`, else $MOCK_MCP_FAULTS: either way recorded in run.json and applied on both transports. */
function faultsOf(flag: string | undefined): { faults?: FaultConfig } {
  if (flag !== undefined) return { faults: parseFaults(flag, "--faults") };
  const variable = process.env[FAULTS_ENV];
  return variable ? { faults: parseFaults(variable, FAULTS_ENV) } : {};
}

export function parseSeed(text: string, flag = "--seed"): number {
  const seed = Number(text);
  if (!Number.isInteger(seed) || seed < 0)
    throw new FlagError("BAD_FLAG", `${flag} must be a whole number ≥ 0, not "${text}"`);
  return seed;
}

const STRATEGIES = ["auto", "rewoo", "react", "native", "jsonl"] as const;

function cliOverrides(flags: BenchFlags): ConfigurationInput {
  const overrides: ConfigurationInput = {};
  if (flags.strategy) overrides.strategy = parseChoice("--strategy", flags.strategy, STRATEGIES);
  if (flags.filterN) overrides.filter = flags.filterN === "all" ? "all" : parsePositiveInt("--filter-n", flags.filterN);
  if (flags.exposure) overrides.exposure = parseChoice("--exposure", flags.exposure, EXPOSURES);
  return overrides;
}

function runningText(running: Record<string, { ok: number; n: number }>): string {
  return Object.entries(running)
    .filter(([, tally]) => tally.n > 0)
    .slice(0, 4)
    .map(([config, tally]) => `${config} ${Math.round((tally.ok / tally.n) * 100)}%`)
    .join(" · ");
}

/** The --json shape: `{runId, simulated, rows: [{model, config, n, taskSuccess, taskSuccessCi, …}]}`. */
export function jsonSummary(summary: RunSummary): Record<string, unknown> {
  return {
    runId: summary.runId,
    simulated: summary.simulated,
    ...(summary.provenance ? { provenance: summary.provenance } : {}),
    ...(summary.dryRun ? { dryRun: true } : {}),
    records: summary.records,
    ...(summary.sequential ? { sequential: summary.sequential } : {}),
    rows: summary.rows.map(jsonRow),
    ...(summary.conversations ? { conversations: summary.conversations } : {}),
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
  const flat: Record<string, unknown> = { model: row.model, config: row.config, n: row.n, invalid: row.invalid };
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
    toolCallsAsText: row.toolCallsAsText ?? { calls: 0, items: 0 },
    p50Ms: row.p50Ms?.value ?? null,
    p50MsCi: row.p50Ms ? [row.p50Ms.lo, row.p50Ms.hi] : null,
    p95Ms: row.p95Ms?.value ?? null,
    p95MsCi: row.p95Ms ? [row.p95Ms.lo, row.p95Ms.hi] : null,
  };
}
