/**
 * Harness throughput on the simulator: the real runner (leases, resets, agent, state checks, scoring,
 * records, spans) over the dataset, in-memory and over stdio. Figures: agent runs per second, harness
 * overhead per run (task wall time minus model and tool time), and the peak RSS of the process.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadModelsConfig, matrixConfigs } from "../../models/config.ts";
import { loadDataset } from "../dataset/load.ts";
import { runBench } from "../run/bench.ts";
import { forEachJsonl, RUN_FILES } from "../run/store.ts";
import { percentile } from "../stats/percentile.ts";

export interface HarnessPerfOptions {
  /** Runs of the in-memory matrix (rounded up to whole repeats of model × configs × items). */
  runs: number;
  stdioRuns: number;
  model: string;
  matrix: string;
  concurrency: number;
}

export interface HarnessPerfReport {
  model: string;
  matrix: string;
  inMemoryRuns: number;
  inMemoryRunsPerSec: number;
  stdioRuns: number;
  stdioRunsPerSec: number;
  overheadP50Ms: number;
  overheadP95Ms: number;
  peakRssMb: number;
}

interface Measured {
  runs: number;
  runsPerSec: number;
  overheadMs: number[];
}

export async function measureHarness(options: HarnessPerfOptions): Promise<HarnessPerfReport> {
  const memory = await measureTransport("memory", options.runs, options);
  const stdio = await measureTransport("stdio", options.stdioRuns, options);
  return {
    model: options.model,
    matrix: options.matrix,
    inMemoryRuns: memory.runs,
    inMemoryRunsPerSec: memory.runsPerSec,
    stdioRuns: stdio.runs,
    stdioRunsPerSec: stdio.runsPerSec,
    overheadP50Ms: percentile(memory.overheadMs, 50),
    overheadP95Ms: percentile(memory.overheadMs, 95),
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

async function measureTransport(
  transport: "memory" | "stdio",
  runs: number,
  options: HarnessPerfOptions,
): Promise<Measured> {
  const root = mkdtempSync(join(tmpdir(), `onsetlab-perf-${transport}-`));
  try {
    // time from the first finished task to the last: servers' start-up and the summary are not throughput
    let first = 0;
    let last = 0;
    let firstDone = 0;
    const configs = matrixConfigs(loadModelsConfig(), options.matrix).length;
    const items = loadDataset().length;
    const repeats = Math.max(1, Math.ceil(runs / (configs * items)));
    const limit = Math.min(items, Math.ceil(runs / (configs * repeats)));
    const outcome = await runBench({
      request: {
        models: [options.model],
        configs: [],
        matrix: options.matrix,
        dataset: [],
        filter: {},
        seed: 1,
        repeats,
        transport,
        limit,
      },
      resultsRoot: root,
      concurrency: options.concurrency,
      onProgress: ({ done }) => {
        const now = performance.now();
        if (first === 0) {
          first = now;
          firstDone = done;
        }
        last = now;
      },
    });
    const overheadMs: number[] = [];
    forEachJsonl<{ taskMs: number; result: { timings: { modelMs: number; toolsMs: number } } }>(
      join(outcome.dir, RUN_FILES.records),
      (record) =>
        overheadMs.push(Math.max(0, record.taskMs - record.result.timings.modelMs - record.result.timings.toolsMs)),
    );
    const timed = outcome.summary.records - firstDone;
    return { runs: outcome.summary.records, runsPerSec: (timed / (last - first)) * 1000, overheadMs };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
