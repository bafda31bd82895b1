/**
 * What the dataset covers (per category, server, difficulty; share of writes) and whether it meets the
 * sizes issue 3 sets, so that a 10-point difference between configurations is measurable.
 */
import type { ToolDefinition } from "../../tool-protocol/types.ts";
import type { DatasetProblem } from "./errors.ts";
import { CATEGORIES, type Category, type DatasetItem, type LoadedItem } from "./types.ts";

export const MINIMUMS = {
  items: 500,
  perServer: 30,
  writeShare: 0.25,
  byCategory: {
    direct: 40,
    single: 150,
    sequence: 80,
    parallel: 60,
    exploratory: 40,
    irrelevant: 40,
    missing_info: 30,
  } satisfies Record<Category, number>,
} as const;

export interface Coverage {
  items: number;
  byCategory: Record<string, number>;
  byServer: Record<string, number>;
  byDifficulty: Record<string, number>;
  writes: number;
  writeShare: number;
}

/** Does the item change state: a gold call to a write tool, or (missing_info) a forbidden write tool? */
export function isWriteItem(item: DatasetItem, tools: ReadonlyMap<string, ToolDefinition>): boolean {
  const names = [...item.calls.map((call) => call.tool), ...(item.forbidden ?? [])];
  return names.some((name) => tools.get(name)?.annotations.readOnlyHint === false);
}

export function measureCoverage(items: readonly LoadedItem[], tools: readonly ToolDefinition[]): Coverage {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const count = (key: string, into: Record<string, number>) => {
    into[key] = (into[key] ?? 0) + 1;
  };
  const byCategory: Record<string, number> = Object.fromEntries(CATEGORIES.map((category) => [category, 0]));
  const byServer: Record<string, number> = {};
  const byDifficulty: Record<string, number> = {};
  let writes = 0;
  for (const { item } of items) {
    count(item.category, byCategory);
    count(item.difficulty, byDifficulty);
    for (const server of item.servers) count(server, byServer);
    if (isWriteItem(item, byName)) writes++;
  }
  return {
    items: items.length,
    byCategory,
    byServer,
    byDifficulty,
    writes,
    writeShare: items.length === 0 ? 0 : Math.round((writes / items.length) * 1000) / 1000,
  };
}

/** The size requirements that are not met (empty when the dataset is big and varied enough). */
export function unmetMinimums(coverage: Coverage, servers: readonly string[]): string[] {
  const unmet: string[] = [];
  if (coverage.items < MINIMUMS.items) unmet.push(`items ${coverage.items} < ${MINIMUMS.items}`);
  for (const [category, minimum] of Object.entries(MINIMUMS.byCategory)) {
    const have = coverage.byCategory[category] ?? 0;
    if (have < minimum) unmet.push(`category ${category} ${have} < ${minimum}`);
  }
  for (const server of servers) {
    const have = coverage.byServer[server] ?? 0;
    if (have < MINIMUMS.perServer) unmet.push(`server ${server} ${have} < ${MINIMUMS.perServer}`);
  }
  if (coverage.writeShare < MINIMUMS.writeShare)
    unmet.push(`write share ${coverage.writeShare} < ${MINIMUMS.writeShare}`);
  return unmet;
}

/**
 * Labelling rules beyond the schema: the `write` tag agrees with the tools' annotations, and an item
 * that uses tools can be checked — writes by a state check, reads by an answer or state check.
 */
export function labelProblems(items: readonly LoadedItem[], tools: readonly ToolDefinition[]): DatasetProblem[] {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const problems: DatasetProblem[] = [];
  for (const { item, file, line } of items) {
    const report = (message: string) => problems.push({ file, line, id: item.id, message });
    const write = isWriteItem(item, byName);
    if (write !== item.tags.includes("write")) {
      report(write ? 'calls a write tool but has no "write" tag' : 'has the "write" tag but calls no write tool');
    }
    const hasWriteCall = item.calls.some((call) => byName.get(call.tool)?.annotations.readOnlyHint === false);
    if (hasWriteCall && !(item.state ?? []).some((check) => !check.negate)) {
      report("changes state but has no state check");
    }
    if (item.calls.length > 0 && !hasWriteCall && !item.answer && !item.state) {
      report("reads state but has neither an answer check nor a state check");
    }
  }
  return problems;
}
