/**
 * One record of a run read back for people and `jq`: found by key without loading the whole file, and
 * expanded so that every model call carries its full request (records store prompts as pointers into
 * earlier calls), every tool call its result text and the tool ranking every tool.
 */
import { join } from "node:path";
import { type ModelCallRecord, modelCallRequest, rankedToolScores, toolCallText } from "../../agent/index.ts";
import type { RunRecord } from "./run-files.ts";
import { forEachJsonl, ResultsError, RUN_FILES } from "./store.ts";

/** The record with `key` in the run folder `dir`; bad input (exit 2) when there is none. */
export function findRecord(dir: string, runId: string, key: string): RunRecord {
  let found: RunRecord | undefined;
  let count = 0;
  let example: string | undefined;
  forEachJsonl<RunRecord>(join(dir, RUN_FILES.records), (record) => {
    count += 1;
    example ??= record.key;
    if (record.key === key) found = record;
  });
  if (!found) {
    const hint = example ? ` (${count} records; keys look like ${example})` : " (it has no records)";
    throw new ResultsError("RECORD_MISSING", `--item ${key}: no record with this key in run ${runId}${hint}`, {
      context: { runId, key },
    });
  }
  return found;
}

/** A model call with its request spelled out: no `promptFrom`, `messagesFrom` or `toolsFrom`. */
export type ExpandedModelCall = Omit<ModelCallRecord, "promptFrom" | "messagesFrom" | "toolsFrom">;

/** The record, self-contained: full prompts, tool result texts and the whole tool ranking. */
export function expandRecord(record: RunRecord): RunRecord {
  const { result } = record;
  const calls = result.modelCalls;
  return {
    ...record,
    result: {
      ...result,
      tools: { ...result.tools, scores: rankedToolScores(result.tools) },
      modelCalls: calls.map((call): ExpandedModelCall => {
        const { promptFrom, messagesFrom, toolsFrom, prompt, messages, tools, ...rest } = call;
        return { ...rest, ...modelCallRequest(calls, call) };
      }),
      toolCalls: result.toolCalls.map((call) => ({ ...call, text: toolCallText(call) })),
    },
  };
}
