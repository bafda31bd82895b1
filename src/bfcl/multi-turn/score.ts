/**
 * `bfcl score` for BFCL v4 multi-turn result files (`BFCL_v4_multi_turn_<cat>_result.json`): each
 * line's `result` (per turn, per step) scored with BFCL's runner rules (checker.ts), as a
 * CategoryScore the v3 report renders, agreement included where BFCL's score file sits beside it.
 *
 * Bad input (exit 2, one line naming file, line and entry): a malformed line, an id the category
 * does not have, more turns than the ground truth (BFCL's inference never makes more; fewer is its
 * force-terminated verdict), a turn that is not a list of steps, a step that is neither text nor
 * calls, an entry naming an environment there is none of.
 */

import { basename } from "node:path";
import { parseTaggedJson } from "../../python/json-tagged.ts";
import type { PyValue } from "../../python/value.ts";
import { loadResults, type RecordedResult } from "../data.ts";
import { BfclInputError } from "../errors.ts";
import type { BfclVerdict } from "../types.ts";
import { type MultiTurnVerdict, scoreMultiTurnResult } from "./checker.ts";
import type { DecodeMode } from "./decode-execute.ts";
import { isMultiTurnCategory, type MultiTurnCategory, readCategory } from "./entries.ts";

export interface MultiTurnEntryScore {
  readonly id: string;
  readonly verdict: BfclVerdict;
  readonly callsInEmptyTurns: number;
}

export function isMultiTurnResultCategory(category: string): category is MultiTurnCategory {
  return isMultiTurnCategory(category);
}

/** FC mode when BFCL named the model so (`…-FC`) or any step is a list of calls; else prompt mode. */
export function modeOf(resultDir: string, results: readonly RecordedResult[]): DecodeMode {
  if (basename(resultDir).endsWith("-FC")) return "fc";
  const fc = results.some((r) => {
    const turns = typeof r.result === "string" ? undefined : r.result;
    return (
      turns?.kind === "list" && turns.items.some((t) => t.kind === "list" && t.items.some((s) => s.kind !== "str"))
    );
  });
  return fc ? "fc" : "prompt";
}

function asBfclVerdict(v: MultiTurnVerdict): BfclVerdict {
  if (v.valid) return { valid: true };
  return { valid: false, errorType: v.errorType!, error: [v.errorMessage ?? "", ...(v.details ?? [])] };
}

function checkShape(file: string, r: RecordedResult, result: PyValue, turns: number): void {
  const bad = (what: string): BfclInputError =>
    new BfclInputError("BFCL_BAD_RESULT", `${file}:${r.line}: ${r.id}: ${what}`, {
      context: { file, line: r.line, id: r.id },
    });
  if (result.kind !== "list") return; // BFCL's inference_error verdict
  if (result.items.length > turns)
    throw bad(`${result.items.length} turns, but the entry has ${turns} (a result of another dataset?)`);
  for (const [t, turn] of result.items.entries()) {
    if (turn.kind !== "list") throw bad(`turn ${t} is ${turn.kind}, expected a list of steps`);
    for (const [s, step] of turn.items.entries())
      if (step.kind !== "str" && step.kind !== "list" && step.kind !== "dict")
        throw bad(
          `turn ${t} step ${s} is ${step.kind}: undecodable (expected prompt-mode text or a list of {name: arguments})`,
        );
  }
}

export function scoreMultiTurnFile(
  category: MultiTurnCategory,
  resultFile: string,
  dataDir: string,
  mode?: DecodeMode,
): { entries: MultiTurnEntryScore[]; results: RecordedResult[] } {
  const { entries, groundTruth } = readCategory(dataDir, category);
  const byId = new Map(entries.map((e) => [e.id, e]));
  const results = loadResults(resultFile);
  const decodeMode = mode ?? modeOf(resultFile.slice(0, resultFile.lastIndexOf("/")), results);
  const scored = results.map((r) => {
    const entry = byId.get(r.id);
    const truth = groundTruth.get(r.id);
    if (!entry || !truth)
      throw new BfclInputError(
        "BFCL_UNKNOWN_ID",
        `${resultFile}:${r.line}: ${r.id}: no ${category} entry with this id`,
        {
          context: { file: resultFile, line: r.line, id: r.id },
        },
      );
    const result = typeof r.result === "string" ? parseTaggedJson(JSON.stringify(r.result)) : r.result;
    checkShape(resultFile, r, result, truth.length);
    let verdict: MultiTurnVerdict;
    try {
      verdict = scoreMultiTurnResult(entry, truth, result, decodeMode);
    } catch (error) {
      if (error instanceof BfclInputError)
        throw new BfclInputError(error.code, `${resultFile}:${r.line}: ${r.id}: ${error.message}`, {
          context: { ...error.context, file: resultFile, line: r.line },
          cause: error,
        });
      throw error;
    }
    return { id: r.id, verdict: asBfclVerdict(verdict), callsInEmptyTurns: verdict.callsInEmptyTurns };
  });
  return { entries: scored, results };
}
