/**
 * `pnpm bench:perf multi-turn`: what the BFCL v4 environments cost. Every ground-truth call of the
 * four multi-turn categories (800 entries) run on fresh instances — the per-call cost, instance
 * creation from initial_config included — and the whole gold replay through the checker (two
 * instance sets per entry, state and response checks after each turn), as a scorer or a runner pays
 * it. Median of `runs` passes, data already read.
 */

import { performance } from "node:perf_hooks";
import { DEFAULT_BFCL_V4_DATA_DIR } from "../paths.ts";
import { checkDecodedTurns } from "./checker.ts";
import { isLongContext, MULTI_TURN_CATEGORIES, type MultiTurnEntry, readCategory } from "./entries.ts";
import { EnvironmentSet } from "./execute.ts";

export interface MultiTurnPerfReport {
  readonly entries: number;
  readonly calls: number;
  /** All ground-truth calls on fresh instances (creation included), one pass, median. */
  readonly executeMs: number;
  readonly perCallUs: number;
  /** The gold replay of every entry through the checker, one pass, median. */
  readonly checkAllMs: number;
  readonly perEntryMs: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export function measureMultiTurn(options: { runs?: number; dataDir?: string } = {}): MultiTurnPerfReport {
  const dataDir = options.dataDir ?? DEFAULT_BFCL_V4_DATA_DIR;
  const work: { entry: MultiTurnEntry; truth: string[][] }[] = MULTI_TURN_CATEGORIES.flatMap((category) => {
    const { entries, groundTruth } = readCategory(dataDir, category);
    return entries.map((entry) => ({ entry, truth: groundTruth.get(entry.id) ?? [] }));
  });
  const calls = work.reduce((n, { truth }) => n + truth.flat().length, 0);
  const executeTimes: number[] = [];
  const checkTimes: number[] = [];
  for (let run = 0; run < (options.runs ?? 3); run++) {
    let start = performance.now();
    for (const { entry, truth } of work) {
      const envs = new EnvironmentSet(entry.involvedClasses, entry.initialConfig, isLongContext(entry.id));
      for (const turn of truth) envs.execute(turn);
    }
    executeTimes.push(performance.now() - start);
    start = performance.now();
    for (const { entry, truth } of work)
      checkDecodedTurns(
        entry,
        truth,
        truth.map((t) => (t.length > 0 ? [t] : [])),
      );
    checkTimes.push(performance.now() - start);
  }
  const executeMs = median(executeTimes);
  const checkAllMs = median(checkTimes);
  return {
    entries: work.length,
    calls,
    executeMs,
    perCallUs: (executeMs * 1000) / calls,
    checkAllMs,
    perEntryMs: checkAllMs / work.length,
  };
}

export function formatMultiTurnPerf(report: MultiTurnPerfReport): string {
  return [
    `BFCL v4 multi-turn: ${report.entries} entries, ${report.calls} ground-truth calls`,
    `every call on fresh instances  ${report.executeMs.toFixed(0)} ms   ${report.perCallUs.toFixed(1)} µs per call (instance creation included)`,
    `gold replay through checker    ${report.checkAllMs.toFixed(0)} ms   ${report.perEntryMs.toFixed(2)} ms per entry`,
    "",
  ].join("\n");
}
