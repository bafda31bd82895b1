/**
 * `pnpm bench:perf multi-turn-run`: a whole simulator run of BFCL's four multi-turn categories (800
 * entries) through the bench's run (its loop, threads, store and summary) — each entry's environments over in-process MCP, the agent
 * turn by turn, BFCL's checker after each turn — timed, with the machine's load beside the figure
 * (the 2-core machines are shared: a figure taken under load says so).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { runBench } from "../run/bench.ts";

export interface MultiTurnRunPerf {
  readonly model: string;
  readonly configs: readonly string[];
  readonly entries: number;
  readonly passed: number;
  readonly wallMs: number;
  readonly perEntryMs: number;
  readonly cores: number;
  /** One-minute load average before and after the run. */
  readonly loadBefore: number;
  readonly loadAfter: number;
}

export async function measureMultiTurnRun(options: {
  model?: string;
  configs?: readonly string[];
  dataset?: string;
}): Promise<MultiTurnRunPerf> {
  const model = options.model ?? "sim:oracle";
  const configs = options.configs ?? ["native"];
  const resultsRoot = mkdtempSync(join(tmpdir(), "onsetlab-mt-perf-"));
  const loadBefore = loadavg()[0] ?? 0;
  const start = performance.now();
  try {
    const { summary } = await runBench({
      request: {
        models: [model],
        configs: [...configs],
        dataset: [options.dataset ?? "bfcl:multi_turn"],
        filter: {},
        seed: 1,
        repeats: 1,
        transport: "memory",
      },
      resultsRoot,
    });
    const wallMs = performance.now() - start;
    const rows = (summary.conversations?.rows ?? []).flatMap((row) => (row.bfcl ? [row.bfcl] : []));
    const entries = rows.reduce((sum, row) => sum + row.accuracy.n, 0);
    return {
      model,
      configs,
      entries,
      passed: rows.reduce((sum, row) => sum + row.accuracy.k, 0),
      wallMs,
      perEntryMs: entries === 0 ? 0 : wallMs / entries,
      cores: cpus().length,
      loadBefore,
      loadAfter: loadavg()[0] ?? 0,
    };
  } finally {
    rmSync(resultsRoot, { recursive: true, force: true });
  }
}

export function formatMultiTurnRunPerf(report: MultiTurnRunPerf): string {
  return [
    `BFCL v4 multi-turn, whole simulator run: ${report.model} × ${report.configs.join(", ")}, ${report.entries} entries (${report.passed} passed)`,
    `wall ${(report.wallMs / 1000).toFixed(1)} s   ${report.perEntryMs.toFixed(1)} ms per entry`,
    `machine: ${report.cores} cores, load average ${report.loadBefore.toFixed(1)} before, ${report.loadAfter.toFixed(1)} after`,
    "",
  ].join("\n");
}
