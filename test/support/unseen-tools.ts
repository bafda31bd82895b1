/**
 * The honest simulator's promise, checked on a run's records: every tool call of a real tool name was
 * of a tool the prompt showed (`tools.filtered`: the planner / ReAct list; native, jsonl: every
 * connected tool), or is a name the simulator makes up for a shown tool (madeUpNames) that happens to
 * be real.
 */
import type { RunRecord } from "../../src/bench/run/run-file-types.ts";
import { madeUpNames } from "../../src/models/sim/index.ts";

export interface UnseenCall {
  key: string;
  tool: string;
}

/** Calls of real tools the prompt did not show and no shown tool's made-up names explain. */
export function unexplainedUnseenCalls(records: readonly RunRecord[], realTools: ReadonlySet<string>): UnseenCall[] {
  const unexplained: UnseenCall[] = [];
  for (const record of records) {
    const shown = new Set(record.result.tools.filtered);
    const guessable = new Set(record.result.tools.filtered.flatMap((tool) => madeUpNames(tool, [])));
    for (const call of record.result.toolCalls) {
      if (!realTools.has(call.tool) || shown.has(call.tool) || guessable.has(call.tool)) continue;
      unexplained.push({ key: record.key, tool: call.tool });
    }
  }
  return unexplained;
}

/** Calls of real tools the prompt did not show, explained or not. */
export function unseenCalls(records: readonly RunRecord[], realTools: ReadonlySet<string>): UnseenCall[] {
  return records.flatMap((record) => {
    const shown = new Set(record.result.tools.filtered);
    return record.result.toolCalls
      .filter((call) => realTools.has(call.tool) && !shown.has(call.tool))
      .map((call) => ({ key: record.key, tool: call.tool }));
  });
}
