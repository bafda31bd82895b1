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
 * BFCL's multi_turn_checker one turn at a time, for a runner that scores each turn as it ends: the
 * model's calls and the ground truth's run on two instance sets from the entry's initial_config, kept
 * across turns. `turn` gives the failure of that turn's checks, or undefined when they pass.
 */
export class TurnByTurnCheck {
  private readonly model: EnvironmentSet;
  private readonly truth: EnvironmentSet;
  private readonly modelResults: string[] = [];
  /** Calls the model made in turns whose ground truth is empty. */
  callsInEmptyTurns = 0;

  constructor(entry: MultiTurnEntry) {
    const longContext = isLongContext(entry.id);
    this.model = new EnvironmentSet(entry.involvedClasses, entry.initialConfig, longContext);
    this.truth = new EnvironmentSet(entry.involvedClasses, entry.initialConfig, longContext);
  }

  /** Runs turn `turn`'s steps (each a list of call texts) and ground truth, then its checks. */
  turn(turn: number, truthCalls: readonly string[], steps: readonly (readonly string[])[]): TurnFailure | undefined {
    for (const step of steps) this.modelResults.push(...this.model.execute(step));
    const truthResults = this.truth.execute(truthCalls);
    if (truthCalls.length === 0) {
      this.callsInEmptyTurns += steps.reduce((n, step) => n + step.length, 0);
      return undefined;
    }
    if (steps.length === 0 || (steps.length === 1 && steps[0]!.length === 0))
      return {
        turn,
        errorType: "multi_turn:empty_turn_model_response",
        errorMessage: `Model response list is empty for turn ${turn}`,
      };
    for (const [name, truthInstance] of this.truth.instances) {
      const modelState = new Map(this.model.instances.get(name)!.publicState());
      const differences = truthInstance
        .publicState()
        .filter(([attr, value]) => !eq(modelState.get(attr) ?? null, value))
        .map(([attr, value]) => `${attr}: model ${repr(modelState.get(attr) ?? null)}, ground truth ${repr(value)}`);
      if (differences.length > 0)
        return {
          turn,
          errorType: "multi_turn:instance_state_mismatch",
          errorMessage: `Model instance for ${name} does not match the state with ground truth instance.`,
          details: differences,
        };
    }
    const missing = missingUnordered(truthResults, this.modelResults);
    if (missing.length > 0)
      return {
        turn,
        errorType: "multi_turn:execution_response_mismatch",
        errorMessage: `Model response execution results so far does not contain all the ground truth response execution results for turn ${turn}.`,
        details: missing,
      };
    return undefined;
  }
}

/** The first failing check of an entry: after which turn, BFCL's error type and message. */
export interface TurnFailure {
  readonly turn: number;
  readonly errorType: MultiTurnErrorType;
  readonly errorMessage: string;
  readonly details?: readonly string[];
}

/** The checker on decoded calls (BFCL's multi_turn_checker): fresh instance sets, turn by turn. */
export function checkDecodedTurns(
  entry: MultiTurnEntry,
  groundTruth: readonly (readonly string[])[],
  decoded: DecodedTurns,
  undecodedSteps = 0,
): MultiTurnVerdict {
  const check = new TurnByTurnCheck(entry);
  for (const [turn, truthCalls] of groundTruth.entries()) {
    const failure = check.turn(turn, truthCalls, decoded[turn] ?? []);
    if (failure) return { valid: false, ...failure, callsInEmptyTurns: check.callsInEmptyTurns, undecodedSteps };
  }
  return { valid: true, callsInEmptyTurns: check.callsInEmptyTurns, undecodedSteps };
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
