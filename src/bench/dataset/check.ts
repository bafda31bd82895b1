/**
 * `dataset check`: schema validation, the cross-check against the servers' tool schemas, labelling
 * rules, the near-duplicate check, coverage against the required sizes, and the gold replay against
 * freshly reset in-process mock servers. Problems are collected, never thrown one at a time.
 */
import { mockServerFactories, mockServerSpecs } from "../../../mock-servers/index.ts";
import { ClientPool } from "../../mcp/pool.ts";
import { loadRegistry } from "../../mcp/registry.ts";
import { type Coverage, labelProblems, measureCoverage, unmetMinimums } from "./coverage.ts";
import { crossCheck } from "./crosscheck.ts";
import type { DatasetProblem } from "./errors.ts";
import { readDataset } from "./load.ts";
import { findNearDuplicates, type NearDuplicate } from "./near-duplicates.ts";
import { type ReplayReport, replayGold } from "./replay.ts";

export interface DatasetCheckReport extends Coverage {
  files: string[];
  /** Schema, cross-check and labelling problems, each at file:line. */
  problems: DatasetProblem[];
  nearDuplicates: number;
  nearDuplicatePairs: NearDuplicate[];
  goldReplay: ReplayReport;
  /** Size requirements not met (checked only for the full dataset). */
  unmet: string[];
  ok: boolean;
}

export interface DatasetCheckOptions {
  paths?: string | readonly string[];
  /** Check the size requirements (the default dataset); off for a single file or a subset. */
  minimums: boolean;
  onReplayProgress?: (done: number, total: number) => void;
}

export async function checkDataset(options: DatasetCheckOptions): Promise<DatasetCheckReport> {
  const { items, problems } = readDataset(options.paths);
  const files = [...new Set(items.map((loaded) => loaded.file))];
  const pool = await ClientPool.open(loadRegistry(), { transport: "memory", inProcess: mockServerFactories });
  try {
    const tools = pool.listTools();
    const checks = Object.fromEntries(
      Object.entries(mockServerSpecs).map(([name, spec]) => [name, Object.keys(spec.checks)]),
    );
    const crossProblems = crossCheck(items, {
      tools,
      checks,
      readOnly: (tool) => tool.annotations.readOnlyHint === true,
    });
    const badIds = new Set(crossProblems.map((problem) => problem.id));
    const allProblems = [...problems, ...crossProblems, ...labelProblems(items, tools)];
    const nearDuplicatePairs = findNearDuplicates(items);
    // Items that do not fit the schemas would only fail again in the replay, less clearly.
    const goldReplay = await replayGold(
      items.filter((loaded) => !badIds.has(loaded.item.id)),
      pool,
      options.onReplayProgress,
    );
    const coverage = measureCoverage(items, tools);
    const unmet = options.minimums ? unmetMinimums(coverage, pool.serverNames()) : [];
    return {
      ...coverage,
      files,
      problems: allProblems,
      nearDuplicates: nearDuplicatePairs.length,
      nearDuplicatePairs,
      goldReplay,
      unmet,
      ok: allProblems.length === 0 && nearDuplicatePairs.length === 0 && goldReplay.failed === 0 && unmet.length === 0,
    };
  } finally {
    await pool.close();
  }
}
