/**
 * Model time, measured (`pnpm bench:perf model-time`): the stand-in paced as a laptop 3B model (400
 * prompt tokens/s, 40 generated tokens/s, one slot with its prompt cache, a load on first use), the
 * default matrix over N items with `qwen2.5:3b` against it and a cold request cache, then the same run
 * again. Every modelled time is multiplied by the time scale, so the script takes minutes instead of
 * hours: the times below are the scaled ones, and their ratios are what a laptop would see.
 *
 * Figures: requests the server served per model call recorded (the request cache answers the rest),
 * prompt tokens it evaluated per token sent (its prompt cache held the rest), the run's wall clock per
 * second the server was busy (the harness's own share), the second run's requests and wall clock, and
 * the estimate's (`bench --estimate`) error against the first run's wall clock.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Standin, type StandinStatsReport, startStandin } from "../../../mock-servers/ollama/server.ts";
import type { SimGoldItem } from "../../models/sim/gold.ts";
import { createSimProvider } from "../../models/sim/index.ts";
import { loadDataset } from "../dataset/load.ts";
import { type BenchOptions, runBench } from "../run/bench.ts";
import { type BenchEstimate, estimateRun } from "../run/estimate.ts";
import { forEachJsonl, RUN_FILES } from "../run/store.ts";

export interface ModelTimeOptions {
  /** Items of the matrix (`--limit`). */
  limit: number;
  /** The matrix of models.yaml (`--matrix`), unless `configs` names the configurations. */
  matrix: string;
  configs?: string[];
  /** Every modelled time × this. */
  timeScale: number;
  model: string;
  seed: number;
  /** Progress lines (stderr). */
  log: (line: string) => void;
}

export const LAPTOP_3B = { promptRate: 400, genRate: 40, slots: 1, loadMs: 3000 } as const;

/** The six figures `--json` prints, and nothing else. */
export interface ModelTimeFigures {
  servedPerRecorded: number;
  evaluatedPerSent: number;
  wallPerBusy: number;
  rerunServed: number;
  rerunWallShare: number;
  estimateError: number;
}

export interface ModelTimeReport {
  figures: ModelTimeFigures;
  /** "matrix default", or the configurations named. */
  matrix: string;
  limit: number;
  timeScale: number;
  tasks: number;
  recordedCalls: number;
  first: StandinStatsReport & { wallMs: number };
  rerun: StandinStatsReport & { wallMs: number };
  estimate: BenchEstimate;
}

/**
 * Runs `measure` with the stand-in paced as a laptop 3B (its simulator answering from `gold`) as
 * OLLAMA_HOST and a fresh temp folder for results and the request cache; both gone afterwards.
 */
export async function withLaptopStandin<T>(
  options: { gold: readonly SimGoldItem[]; seed: number; timeScale: number },
  measure: (standin: Standin, root: string) => Promise<T>,
): Promise<T> {
  const standin = await startStandin({
    provider: createSimProvider({ profile: "slm-3b", gold: options.gold, seed: options.seed }),
    port: 0,
    real: true,
    promptRate: LAPTOP_3B.promptRate,
    genRate: LAPTOP_3B.genRate,
    timeScale: options.timeScale,
    behaviour: { parallel: LAPTOP_3B.slots, coldStartMs: LAPTOP_3B.loadMs },
  });
  const root = mkdtempSync(join(tmpdir(), "onsetlab-model-time-"));
  const saved = { host: process.env.OLLAMA_HOST };
  process.env.OLLAMA_HOST = standin.url;
  try {
    return await measure(standin, root);
  } finally {
    if (saved.host === undefined) delete process.env.OLLAMA_HOST;
    else process.env.OLLAMA_HOST = saved.host;
    await standin.close();
    rmSync(root, { recursive: true, force: true });
  }
}

export async function measureModelTime(options: ModelTimeOptions): Promise<ModelTimeReport> {
  const gold = loadDataset().map((loaded) => loaded.item);
  return withLaptopStandin({ gold, seed: options.seed, timeScale: options.timeScale }, async (standin, root) => {
    const bench: BenchOptions = {
      request: {
        models: [options.model],
        configs: options.configs ?? [],
        ...(options.configs ? {} : { matrix: options.matrix }),
        dataset: [],
        filter: {},
        seed: options.seed,
        repeats: 1,
        transport: "memory",
        limit: options.limit,
      },
      resultsRoot: root,
      // cold: nothing cached before the first run
      cacheDir: join(root, "cache"),
    };
    options.log("estimating (simulator dry pass, one timed request)…");
    const estimate = await estimateRun(bench);
    options.log(`estimate: ${((estimate.etaMs ?? 0) / 1000).toFixed(1)} s; first run (cold cache)…`);
    const first = await timedRun(standin, bench);
    options.log(`first run: ${(first.wallMs / 1000).toFixed(1)} s, ${first.requests} requests; second run…`);
    const rerun = await timedRun(standin, bench);
    const recordedCalls = countModelCalls(first.dir);
    const figures: ModelTimeFigures = {
      servedPerRecorded: first.requests / recordedCalls,
      evaluatedPerSent: first.promptTokensEvaluated / Math.max(1, first.promptTokensSent),
      wallPerBusy: first.wallMs / Math.max(1, first.busyMs),
      rerunServed: rerun.requests,
      rerunWallShare: rerun.wallMs / first.wallMs,
      estimateError: ((estimate.etaMs ?? 0) - first.wallMs) / first.wallMs,
    };
    const { dir: _first, ...firstStats } = first;
    const { dir: _rerun, ...rerunStats } = rerun;
    return {
      figures,
      matrix: options.configs ? `configurations ${options.configs.join(",")}` : `matrix ${options.matrix}`,
      limit: options.limit,
      timeScale: options.timeScale,
      tasks: estimate.tasks,
      recordedCalls,
      first: firstStats,
      rerun: rerunStats,
      estimate,
    };
  });
}

/** One run of the matrix, the stand-in's statistics from its start to its end. */
async function timedRun(
  standin: Standin,
  bench: BenchOptions,
): Promise<StandinStatsReport & { wallMs: number; dir: string }> {
  standin.resetStats();
  const started = performance.now();
  const outcome = await runBench(bench);
  const wallMs = performance.now() - started;
  return { ...standin.stats(), wallMs, dir: outcome.dir };
}

function countModelCalls(dir: string): number {
  let calls = 0;
  forEachJsonl<{ result: { modelCalls: unknown[] } }>(join(dir, RUN_FILES.records), (record) => {
    calls += record.result.modelCalls.length;
  });
  return calls;
}

export function formatModelTime(report: ModelTimeReport): string {
  const { figures, first, rerun } = report;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const ratio = (value: number) => value.toFixed(3);
  const target = (ok: boolean, text: string) => `${text} ${ok ? "✓" : "✗ MISSED"}`;
  return [
    `model time: ${report.matrix} × ${report.limit} items (${report.tasks} tasks), qwen2.5:3b on the stand-in paced as a laptop 3B ` +
      `(${LAPTOP_3B.promptRate} prompt / ${LAPTOP_3B.genRate} generated tokens/s, ${LAPTOP_3B.slots} slot, ${LAPTOP_3B.loadMs} ms load), ` +
      `every modelled time ×${report.timeScale} — times below are scaled (÷${report.timeScale} for a laptop's), ratios are not; simulated (stand-in)`,
    `requests served / model calls recorded   ${first.requests} / ${report.recordedCalls} = ${ratio(figures.servedPerRecorded)}   ${target(figures.servedPerRecorded <= 0.75, "target ≤ 0.75")}`,
    `prompt tokens evaluated / sent           ${first.promptTokensEvaluated} / ${first.promptTokensSent} = ${ratio(figures.evaluatedPerSent)}   ${target(figures.evaluatedPerSent <= 0.5, "target ≤ 0.5")}`,
    `wall clock / stand-in busy               ${seconds(first.wallMs)} / ${seconds(first.busyMs)} = ${ratio(figures.wallPerBusy)}   ${target(figures.wallPerBusy <= 1.1, "target ≤ 1.10")}`,
    `second identical run: served             ${rerun.requests}   ${target(rerun.requests === 0, "target 0")}`,
    `second run's wall clock / first's        ${seconds(rerun.wallMs)} / ${seconds(first.wallMs)} = ${ratio(figures.rerunWallShare)}   ${target(figures.rerunWallShare <= 0.05, "target ≤ 0.05")}`,
    `estimate vs first run's wall clock       ${seconds(report.estimate.etaMs ?? 0)} vs ${seconds(first.wallMs)}: ${(figures.estimateError * 100).toFixed(1)}%   ${target(Math.abs(figures.estimateError) <= 0.25, "target ±25%")}`,
    ...report.estimate.models.map(
      (model) =>
        `(the estimate expected ${model.modelCalls} calls, ${model.repeated} of them repeats of an earlier request, ${model.toSend} sent; ` +
        `first run: ${first.loads} loads, ${seconds(first.loadMs)})`,
    ),
    "",
  ].join("\n");
}
