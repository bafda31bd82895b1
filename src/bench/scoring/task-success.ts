/**
 * Task success: everything the item asks for, each part listed in `requirements`.
 * - no_run_error (always): the run ended without an error (time limit, model failure, iteration limit).
 * - calls (items with gold calls): every gold call strictly matched — a distinct counted call with the
 *   right name and every argument right by matchJsonArgs, in order for `sequence` (call-match.ts).
 *   Failed calls that were retried or rescued into a right call do not hurt.
 * - no_extra_write (all but irrelevant items, whose abstention already forbids every call): no
 *   counted call left unpaired with a gold call is a SUCCESSFUL write. Extra read-only look-ups and
 *   failed attempts are allowed.
 * - abstention (irrelevant, missing_info): see abstention.ts.
 * - state (items with state checks): every check holds, negation applied (state.ts).
 * - answer (items with an answer check): answer.ts.
 */

import type { DatasetItem } from "../dataset/types.ts";
import type { CallMatching } from "./call-match.ts";
import type { CountedCall } from "./calls.ts";
import type { AbstentionScore, AnswerScore, Requirement, StateScore } from "./score-types.ts";
import type { TraceView } from "./types.ts";

export interface RequirementsInput {
  item: DatasetItem;
  trace: TraceView;
  matching: CallMatching;
  abstention: AbstentionScore | null;
  state: StateScore | null;
  answer: AnswerScore | null;
}

export function requirementsOf(input: RequirementsInput): Requirement[] {
  const { item, trace, matching, abstention, state, answer } = input;
  const requirements: Requirement[] = [{ name: "no_run_error", ok: trace.error === undefined }];
  if (item.calls.length > 0) requirements.push({ name: "calls", ok: matching.allStrict });
  if (item.category !== "irrelevant") {
    requirements.push({ name: "no_extra_write", ok: extraWrites(matching).length === 0 });
  }
  if (abstention) requirements.push({ name: "abstention", ok: abstention.ok });
  if (state) requirements.push({ name: "state", ok: state.ok });
  if (answer) requirements.push({ name: "answer", ok: answer.ok });
  return requirements;
}

/** Successful write calls no gold call accounts for. */
export function extraWrites(matching: CallMatching): CountedCall[] {
  return matching.unpaired.filter((call) => call.write && call.ok);
}
