/**
 * `dataset check`: schema validation, the cross-check against the servers' tool schemas, labelling
 * rules, the near-duplicate check, coverage against the required sizes, and the gold replay against the
 * registry's servers, reset between items (the mocks in process). A gold write call replays only where the
 * server's reset can undo it (a mock, `fixture`, `command`) or with `allowWrites`: checking a dataset must
 * not change a user's real data. Problems are collected, never thrown one at a time.
 */
import { mockServerFactories, mockServerSpecs } from "../../../mock-servers/index.ts";
import { ClientPool } from "../../mcp/pool.ts";
import { canUndoWrites, loadRegistries, type Registry } from "../../mcp/registry.ts";
import { resetKind } from "../../mcp/registry-entry.ts";
import type { ToolDefinition } from "../../tool-protocol/types.ts";
import { type Coverage, labelProblems, measureCoverage, unmetMinimums } from "./coverage.ts";
import { crossCheck } from "./crosscheck.ts";
import type { DatasetProblem } from "./errors.ts";
import { readDataset } from "./load.ts";
import { findNearDuplicates, type NearDuplicate } from "./near-duplicates.ts";
import { type ReplayReport, replayGold } from "./replay.ts";
import { readOnlyIn } from "./state-checks.ts";
import { todoProblems } from "./todo.ts";
import { turnAsItem } from "./types.ts";

export interface DatasetCheckReport extends Coverage {
  files: string[];
  /** Conversation lines (each replayed turn by turn). */
  conversations: number;
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
  /** Registry files of the servers (default: the mock servers'). */
  registries?: readonly string[];
  /** Replay gold write calls even on servers whose reset cannot undo them. */
  allowWrites?: boolean;
  onReplayProgress?: (done: number, total: number) => void;
}

export async function checkDataset(options: DatasetCheckOptions): Promise<DatasetCheckReport> {
  const { items, conversations, problems } = readDataset(options.paths);
  const files = [...new Set([...items, ...conversations].map((loaded) => loaded.file))];
  // Each turn is cross-checked as the single-turn item it is graded as.
  const turnItems = conversations.flatMap((loaded) =>
    loaded.conversation.turns.map((_, index) => ({
      item: turnAsItem(loaded.conversation, index),
      file: loaded.file,
      line: loaded.line,
    })),
  );
  const registry = loadRegistries(options.registries);
  const pool = await ClientPool.open(registry, { transport: "memory", mocks: mockServerFactories });
  try {
    const tools = pool.listTools();
    const mocks = new Set(registry.servers.filter((entry) => entry.mock).map((entry) => entry.name));
    const checks = Object.fromEntries(
      Object.entries(mockServerSpecs)
        .filter(([name]) => mocks.has(name))
        .map(([name, spec]) => [name, Object.keys(spec.checks)]),
    );
    const readOnly = readOnlyIn(registry);
    const crossProblems = crossCheck([...items, ...turnItems], { tools, checks, readOnly });
    const todo = todoProblems([...items, ...turnItems]);
    // unfinished drafts and items that do not fit the schemas would only fail again in the replay, less clearly
    const badIds = new Set([...crossProblems, ...todo].map((problem) => problem.id?.replace(/#\d+$/, "")));
    const allProblems = [...problems, ...todo, ...crossProblems, ...labelProblems(items, tools)];
    const nearDuplicatePairs = findNearDuplicates(items);
    const goldReplay = await replayGold(
      items.filter((loaded) => !badIds.has(loaded.item.id)),
      pool,
      {
        skipCall: options.allowWrites ? () => undefined : unreplayableWrite(registry),
        onItem: options.onReplayProgress,
      },
      conversations.filter((loaded) => !badIds.has(loaded.conversation.id)),
    );
    const coverage = measureCoverage(items, tools);
    const unmet = options.minimums ? unmetMinimums(coverage, pool.serverNames()) : [];
    return {
      ...coverage,
      files,
      conversations: conversations.length,
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

/** Why a gold call must not replay: a write to a server whose reset cannot undo it. */
function unreplayableWrite(registry: Registry): (tool: ToolDefinition) => string | undefined {
  const entries = new Map(registry.servers.map((entry) => [entry.name, entry]));
  const readOnly = readOnlyIn(registry);
  return (tool) => {
    const entry = entries.get(tool.server);
    if (!entry || readOnly(tool) || canUndoWrites(entry)) return undefined;
    return `${tool.name} writes to "${tool.server}", whose reset (${resetKind(entry)}) cannot undo it; --allow-writes replays it`;
  };
}
