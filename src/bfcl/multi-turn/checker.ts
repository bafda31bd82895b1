/**
 * BFCL's multi-turn verdict, as its evaluation runner gives it at SOURCE_COMMIT
 * (`_evaluate_single_multi_turn_entry` + `multi_turn_checker`):
 * - a result that is not a list of turns: `multi_turn:inference_error`;
 * - a number of turns other than the ground truth's: `multi_turn:force_terminated`;
 * - each step decoded (a step that fails to decode, or decodes to nothing, is dropped);
 * - the model's calls and the ground truth's run on two instance sets from the same initial_config,
 *   turn by turn, the model's even in a turn whose ground truth is empty;
 * - after each turn whose ground truth is not empty: no step → `multi_turn:empty_turn_model_response`;
 *   a public attribute differing → `multi_turn:instance_state_mismatch`; a ground-truth result of the
 *   turn missing from the model's results so far → `multi_turn:execution_response_mismatch`.
 * BFCL's `multi_turn_irrelevance_checker` is not called; the calls a model makes in an empty turn are
 * counted apart (`callsInEmptyTurns`), a figure of this project's, not a verdict.
 */

import type { PyValue } from "../../python/value.ts";
import { type DecodeMode, decodeExecuteStep, isEmptyExecuteResponse } from "./decode-execute.ts";
import { isLongContext, type MultiTurnEntry } from "./entries.ts";
import { EnvironmentSet } from "./execute.ts";
import { eq, repr } from "./py.ts";

export type MultiTurnErrorType =
  | "multi_turn:inference_error"
  | "multi_turn:force_terminated"
  | "multi_turn:empty_turn_model_response"
  | "multi_turn:instance_state_mismatch"
  | "multi_turn:execution_response_mismatch";

export interface MultiTurnVerdict {
  readonly valid: boolean;
  readonly errorType?: MultiTurnErrorType;
  readonly errorMessage?: string;
  /** The turn the failing check ran after. */
  readonly turn?: number;
  /** State mismatch: the differing attributes; response mismatch: the missing results. */
  readonly details?: readonly string[];
  /** Calls the model made in turns whose ground truth is empty (reported apart; not part of the verdict). */
  readonly callsInEmptyTurns: number;
  /** Steps dropped because they did not decode. */
  readonly undecodedSteps: number;
}

/** The model's decoded calls: per turn, per step, the call texts. */
export type DecodedTurns = readonly (readonly (readonly string[])[])[];

/**
 * The checker on decoded calls (BFCL's multi_turn_checker). Runs the entry's environments; both
 * instance sets are fresh for each check.
 */
export function checkDecodedTurns(
  entry: MultiTurnEntry,
  groundTruth: readonly (readonly string[])[],
  decoded: DecodedTurns,
  undecodedSteps = 0,
): MultiTurnVerdict {
  const longContext = isLongContext(entry.id);
  const model = new EnvironmentSet(entry.involvedClasses, entry.initialConfig, longContext);
  const truth = new EnvironmentSet(entry.involvedClasses, entry.initialConfig, longContext);
  const allModelResults: string[] = [];
  let callsInEmptyTurns = 0;
  const fail = (
    turn: number,
    errorType: MultiTurnErrorType,
    errorMessage: string,
    details?: readonly string[],
  ): MultiTurnVerdict => ({ valid: false, errorType, errorMessage, turn, details, callsInEmptyTurns, undecodedSteps });

  for (const [turn, truthCalls] of groundTruth.entries()) {
    const steps = decoded[turn] ?? [];
    for (const step of steps) allModelResults.push(...model.execute(step));
    const truthResults = truth.execute(truthCalls);
    if (truthCalls.length === 0) {
      callsInEmptyTurns += steps.reduce((n, step) => n + step.length, 0);
      continue;
    }
    if (steps.length === 0 || (steps.length === 1 && steps[0]!.length === 0))
      return fail(turn, "multi_turn:empty_turn_model_response", `Model response list is empty for turn ${turn}`);
    for (const [name, truthInstance] of truth.instances) {
      const modelState = new Map(model.instances.get(name)!.publicState());
      const differences = truthInstance
        .publicState()
        .filter(([attr, value]) => !eq(modelState.get(attr) ?? null, value))
        .map(([attr, value]) => `${attr}: model ${repr(modelState.get(attr) ?? null)}, ground truth ${repr(value)}`);
      if (differences.length > 0)
        return fail(
          turn,
          "multi_turn:instance_state_mismatch",
          `Model instance for ${name} does not match the state with ground truth instance.`,
          differences,
        );
    }
    const missing = missingUnordered(truthResults, allModelResults);
    if (missing.length > 0)
      return fail(
        turn,
        "multi_turn:execution_response_mismatch",
        `Model response execution results so far does not contain all the ground truth response execution results for turn ${turn}.`,
        missing,
      );
  }
  return { valid: true, callsInEmptyTurns, undecodedSteps };
}

/** BFCL's _is_subsequence_unordered: each expected item taken once from what the model produced. */
function missingUnordered(expected: readonly string[], produced: readonly string[]): string[] {
  const pool = [...produced];
  const missing: string[] = [];
  for (const item of expected) {
    const at = pool.indexOf(item);
    if (at < 0) missing.push(item);
    else pool.splice(at, 1);
  }
  return missing;
}

/**
 * The whole runner on one raw result (`result` of a BFCL multi-turn result line: per turn, per
 * step, a prompt-mode string or an FC-mode list of `{name: arguments}`).
 */
export function scoreMultiTurnResult(
  entry: MultiTurnEntry,
  groundTruth: readonly (readonly string[])[],
  result: PyValue,
  mode: DecodeMode,
): MultiTurnVerdict {
  if (result.kind !== "list")
    return {
      valid: false,
      errorType: "multi_turn:inference_error",
      errorMessage: "Error during inference phase. Model did not output a list of model responses.",
      callsInEmptyTurns: 0,
      undecodedSteps: 0,
    };
  if (result.items.length !== groundTruth.length)
    return {
      valid: false,
      errorType: "multi_turn:force_terminated",
      errorMessage: `Model was force-terminated during inference phase. The length of the model result turns (${result.items.length}) does not match the length of the ground truth turns (${groundTruth.length}).`,
      callsInEmptyTurns: 0,
      undecodedSteps: 0,
    };
  let undecoded = 0;
  const decoded = result.items.map((turn) => {
    const steps = turn.kind === "list" || turn.kind === "tuple" ? turn.items : [];
    const out: string[][] = [];
    for (const step of steps) {
      try {
        const calls = decodeExecuteStep(step, mode);
        if (!isEmptyExecuteResponse(calls)) out.push(calls);
      } catch {
        undecoded++;
      }
    }
    return out;
  });
  return checkDecodedTurns(entry, groundTruth, decoded, undecoded);
}
