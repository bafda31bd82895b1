/**
 * The failure taxonomy of one item. `failures` explains a failed item (empty exactly when it
 * succeeded), primary first in FAILURE_KINDS order; `recovered` lists problems the run had that did
 * not make it fail.
 *
 * Failures, from each failed requirement (task-success.ts):
 * - no_run_error → timeout (`RUN_ABORTED`: the time limit or the caller's abort), model_error
 *   (`MODEL_CALL_FAILED`: the provider failed), no_answer (any other run error, e.g. a loop that hit
 *   its iteration limit without a final answer).
 * - abstention → missed_abstention.
 * - calls → per gold call without a strict match:
 *   - its paired call (same tool) has wrong arguments → per failing argument: missing_required (a
 *     schema-required or gold-required parameter absent), wrong_param_name (a parameter the gold call
 *     or schema does not take — the renamed or invented one; when there are at least as many of
 *     these as missing parameters, the missing ones are taken as renamed and not also counted as
 *     missing_required), type_error, wrong_value; right arguments in the wrong order for a
 *     `sequence` item → wrong_order, after the kinds of the other (earlier, failed) calls of that
 *     tool, which usually explain why the right call came late;
 *   - no call of its tool reached a server and the model's answer held tool calls as text that the server
 *     did not parse (`native`) → tool_call_as_text alone: the model made its calls, never counted as a
 *     tool-choice mistake (also added to any failed item whose answer held unexecuted text calls);
 *   - no call of its tool reached a server and the prompt never listed that tool (the filter or the
 *     session left it out) → tool_not_shown alone: the model could not have chosen it, so what it did
 *     instead is not counted as its mistake; a call of a shown tool the model just did not make when
 *     another gold tool was hidden is tool_not_shown too (it could not have finished the task);
 *   - no call of its tool reached a server → missing_required when a plan step for it failed
 *     validation for a missing parameter, parse_failure when it failed for syntax; otherwise every
 *     one that applies of: hallucinated_tool (the model used a name no tool has), wrong_tool (it used
 *     an existing tool no gold call uses), parse_failure (a loop turn or the planner's output could
 *     not be read); and missing_call when none does (the model just did not make the call).
 * - no_extra_write → extra_call.
 * - state → state_mismatch; answer → answer_mismatch.
 * - asked_needlessly is a conversation's (conversation/item-score.ts), never set here.
 * - Also, on a failed item: timeout when a counted tool call timed out, and blocked_duplicate_write
 *   when the write guard blocked a repeated write.
 * Recovered (trace problems not already among the failures): tool_call_as_text (calls left as text that
 * `native-recover` executed), hallucinated_tool (an invented name),
 * missing_required (a plan step or server reported a missing parameter, or the rescue filled one),
 * parse_failure (an unreadable loop turn or malformed planner output), wrong_tool (a call or plan
 * step of an existing non-gold tool that failed), missed_abstention (a call the item forbids,
 * abstention.ts, was proposed but never reached a server), blocked_duplicate_write, timeout (a tool
 * call timed out), model_error (a model call failed without ending the run, e.g. the router's check).
 * A call the item forbids is that one mistake, missed_abstention: the parameter it lacks (on
 * missing_info, the value the user never gave) is not also missing_required.
 */

import type { DatasetItem } from "../dataset/types.ts";
import { abstentionForbids } from "./abstention.ts";
import type { ArgErrorType, CallArgsVerdict } from "./arg-match.ts";
import type { CallMatching, Pairing } from "./call-match.ts";
import type { CountedCall, ProposedCall } from "./calls.ts";
import type { PlannerClassification } from "./planner-output.ts";
import { FAILURE_KINDS, type FailureKind, type Requirement } from "./score-types.ts";
import type { ToolCatalog } from "./tool-catalog.ts";
import type { TraceView } from "./types.ts";

export interface DiagnosisInput {
  item: DatasetItem;
  trace: TraceView;
  requirements: readonly Requirement[];
  matching: CallMatching;
  counted: readonly CountedCall[];
  proposed: readonly ProposedCall[];
  hallucinated: readonly string[];
  planner: PlannerClassification | null;
  catalog: ToolCatalog;
  /** Gold tools the prompt did not show (visibility.ts). */
  hidden: readonly string[];
}

export interface Diagnosis {
  failures: FailureKind[];
  recovered: FailureKind[];
}

export function diagnose(input: DiagnosisInput): Diagnosis {
  const failed = new Set(input.requirements.filter((r) => !r.ok).map((r) => r.name));
  const failures = new Set<FailureKind>();
  if (failed.has("no_run_error")) failures.add(runErrorKind(input.trace.error?.code));
  if (failed.has("abstention")) failures.add("missed_abstention");
  if (failed.has("calls")) {
    for (const pairing of input.matching.pairings) {
      if (!pairing.strict) for (const kind of diagnoseGoldCall(pairing, input)) failures.add(kind);
    }
  }
  if (failed.has("no_extra_write")) failures.add("extra_call");
  if (failed.has("state")) failures.add("state_mismatch");
  if (failed.has("answer")) failures.add("answer_mismatch");
  if (failed.size > 0) {
    if (textCallsLeft(input.trace)) failures.add("tool_call_as_text");
    if (input.counted.some((call) => call.errorKind === "timeout")) failures.add("timeout");
    if (input.trace.writeGuard.blocked.length > 0) failures.add("blocked_duplicate_write");
  }
  const recovered = traceProblems(input);
  return {
    failures: inOrder(failures),
    recovered: inOrder(new Set([...recovered].filter((kind) => !failures.has(kind)))),
  };
}

function runErrorKind(code: string | undefined): FailureKind {
  if (code === "RUN_ABORTED") return "timeout";
  if (code === "MODEL_CALL_FAILED") return "model_error";
  return "no_answer";
}

function inOrder(kinds: ReadonlySet<FailureKind>): FailureKind[] {
  return FAILURE_KINDS.filter((kind) => kinds.has(kind));
}

function diagnoseGoldCall(pairing: Pairing, input: DiagnosisInput): FailureKind[] {
  if (pairing.verdict) {
    const kinds = argumentKinds(pairing.verdict);
    if (kinds.length > 0) return kinds;
    // Right arguments, wrong place in the sequence: usually an earlier attempt of this call went
    // wrong and the right one came only after the later steps (e.g. from the fallback).
    const tool = input.item.calls[pairing.expected]!.tool;
    const earlier = input.counted.flatMap((call, index) =>
      call.tool === tool && index !== pairing.actual
        ? argumentKinds(input.matching.verdict(pairing.expected, index))
        : [],
    );
    return [...new Set(earlier), "wrong_order"];
  }
  const tool = input.item.calls[pairing.expected]!.tool;
  if (input.hidden.includes(tool)) return ["tool_not_shown"];
  // the model made its calls, the server did not parse them: not a choice the model got wrong
  if (textCallsLeft(input.trace)) return ["tool_call_as_text"];
  const attempts = input.proposed.filter((call) => call.tool === tool && call.error !== undefined);
  const fromAttempts = new Set<FailureKind>();
  if (attempts.some((call) => call.missing !== undefined)) fromAttempts.add("missing_required");
  if (attempts.some((call) => /syntax/i.test(call.error ?? ""))) fromAttempts.add("parse_failure");
  if (fromAttempts.size > 0) return [...fromAttempts];

  const kinds: FailureKind[] = [];
  if (input.hallucinated.length > 0) kinds.push("hallucinated_tool");
  if (usedNonGoldTool(input, false)) kinds.push("wrong_tool");
  if (parseFailureSeen(input)) kinds.push("parse_failure");
  if (kinds.length > 0) return kinds;
  // a model that saw it could not finish the task (another of its tools hidden) rightly left this call too
  return [input.hidden.length > 0 ? "tool_not_shown" : "missing_call"];
}

/** The kinds of a verdict's failing arguments (a renamed parameter counted once, not also as missing). */
function argumentKinds(verdict: CallArgsVerdict): FailureKind[] {
  const errors = [...verdict.params.values()].flatMap((v) => (v.valid ? [] : [argumentKind(v.errorType)]));
  const renamed = errors.filter((kind) => kind === "wrong_param_name").length;
  const missing = errors.filter((kind) => kind === "missing_required").length;
  return [...new Set(errors.filter((kind) => kind !== "missing_required" || renamed < missing))];
}

function argumentKind(errorType: ArgErrorType): FailureKind {
  if (errorType === "missing_required" || errorType === "missing_optional") return "missing_required";
  if (errorType === "unexpected_param") return "wrong_param_name";
  if (errorType.startsWith("type_error")) return "type_error";
  return "wrong_value";
}

/** An existing tool that no gold call uses was proposed or called (`failedOnly`: and that attempt failed). */
function usedNonGoldTool(input: DiagnosisInput, failedOnly: boolean): boolean {
  const gold = new Set(input.item.calls.map((call) => call.tool));
  const other = (tool: string) => input.catalog.has(tool) && !gold.has(tool);
  return (
    input.proposed.some((call) => other(call.tool) && (!failedOnly || call.error !== undefined)) ||
    input.counted.some((call) => other(call.tool) && (!failedOnly || !call.ok))
  );
}

/** Tool calls came back as text and were not executed (`native`; `native-recover` executes them). */
export function textCallsLeft(trace: DiagnosisInput["trace"]): boolean {
  return trace.toolCallsAsText?.some((found) => !found.executed) ?? false;
}

function parseFailureSeen({ trace, planner }: DiagnosisInput): boolean {
  const unreadableTurn = [...trace.iterations, ...trace.fallback.iterations].some((turn) => turn.parseError);
  return unreadableTurn || (planner?.errors.includes("malformed_syntax") ?? false);
}

function traceProblems(input: DiagnosisInput): Set<FailureKind> {
  const { trace, item } = input;
  const kinds = new Set<FailureKind>();
  if (trace.toolCallsAsText?.some((found) => found.executed)) kinds.add("tool_call_as_text");
  if (input.hallucinated.length > 0) kinds.add("hallucinated_tool");
  const forbidden = (tool: string) => abstentionForbids(item, tool, input.catalog);
  const missingReported =
    input.proposed.some((call) => call.missing !== undefined && !forbidden(call.tool)) ||
    input.counted.some((call) => call.missing !== undefined && !forbidden(call.tool)) ||
    trace.rescues.some((rescue) => !forbidden(rescue.tool));
  if (missingReported) kinds.add("missing_required");
  if (input.proposed.some((call) => forbidden(call.tool))) kinds.add("missed_abstention");
  if (parseFailureSeen(input)) kinds.add("parse_failure");
  if (item.calls.length > 0 && usedNonGoldTool(input, true)) kinds.add("wrong_tool");
  if (trace.writeGuard.blocked.length > 0) kinds.add("blocked_duplicate_write");
  if (input.counted.some((call) => call.errorKind === "timeout")) kinds.add("timeout");
  if (trace.error === undefined && trace.modelCalls.some((call) => call.error !== undefined)) kinds.add("model_error");
  return kinds;
}
