/**
 * Conversation scores. Per turn: tool choice, arguments, state, answer (the single-turn scorer's parts)
 * and asked-when-needed / asked-needlessly. Per conversation: success (every turn right), the first
 * failing turn, turns completed, and the failure class. Per row (model × configuration): success overall,
 * on the conversations whose gold tools were all shown, per kind, by turn index, pass^k / pass@k.
 */
import type { AgentResult } from "../../agent/types.ts";
import type { ConversationKind } from "../dataset/types.ts";
import { CONVERSATION_KINDS } from "../dataset/types.ts";
import { type Rate, rate } from "../scoring/rate.ts";
import { type RepeatRates, repeatRates } from "../scoring/repeats.ts";
import type { ConversationRecord, TurnRecord } from "./run-conversation.ts";

/**
 * Why a conversation failed, at its first failing turn:
 * - `tool_not_shown`: a gold tool of the turn was not in the prompt (the filter or the session hid it);
 * - `did_not_ask`: a value was missing and the agent acted or answered instead of asking;
 * - `asked_needlessly`: the agent asked where the turn gave everything;
 * - `forgot_correction`: in a `correct` conversation, a turn from the correction on went wrong;
 * - `lost_reference`: a later turn (follow-up, switch back, long) got its calls wrong — what it referred
 *   to in an earlier turn was lost;
 * - `onsetlab_one_step`: a documented limit of OnsetLab's planner (`plan_steps: one`, stopped at `#E2`):
 *   the turn needs more calls than one and the run made at most one;
 * - `onsetlab_solver_cut`: a documented limit of OnsetLab's solver (`solver_data: per_result`, raw text
 *   cut at `solver_data_chars` per result): the calls were right, only the answer missed a fact;
 * - `onsetlab_parser`: a documented quirk of OnsetLab's plan parser (`parser: onsetlab`,
 *   plan-parser-onsetlab.ts): a value came out wrong and a step was rewritten (`word:digit` → `word=digit`)
 *   or cut at an escaped quote;
 * - `turn_failed`: anything else (a first turn, a wrong answer or state).
 * The three OnsetLab limits fail the same turn asked alone; they are named before the conversation classes.
 */
export type ConversationFailure =
  | "tool_not_shown"
  | "did_not_ask"
  | "asked_needlessly"
  | "forgot_correction"
  | "lost_reference"
  | "onsetlab_one_step"
  | "onsetlab_solver_cut"
  | "onsetlab_parser"
  | "turn_failed";

export const CONVERSATION_FAILURES: readonly ConversationFailure[] = [
  "tool_not_shown",
  "did_not_ask",
  "asked_needlessly",
  "forgot_correction",
  "lost_reference",
  "onsetlab_one_step",
  "onsetlab_solver_cut",
  "onsetlab_parser",
  "turn_failed",
];

export interface TurnScore {
  index: number;
  ok: boolean;
  toolChoice: boolean;
  args: boolean;
  state: boolean | null;
  answer: boolean | null;
  askNeeded: boolean;
  asked: boolean;
  /** Every gold tool of the turn was in the prompt (null: the turn has no gold calls or showed no list). */
  goldShown: boolean | null;
}

export interface ConversationScore {
  id: string;
  kind: ConversationKind;
  success: boolean;
  firstFailingTurn: number | null;
  turnsCompleted: number;
  turns: TurnScore[];
  /** Every gold tool of every turn was shown. */
  goldShown: boolean;
  failure?: ConversationFailure;
  invalid?: string;
}

export function scoreTurn(turn: TurnRecord): TurnScore {
  const requirement = (name: string) => turn.score.requirements.find((entry) => entry.name === name)?.ok;
  return {
    index: turn.index,
    ok: turn.ok,
    toolChoice: turn.score.toolChoice.callSet ?? true,
    args: requirement("calls") ?? true,
    state: requirement("state") ?? null,
    answer: requirement("answer") ?? null,
    askNeeded: turn.askNeeded,
    asked: turn.asked,
    goldShown: turn.score.visibility ? turn.score.visibility.shown : null,
  };
}

export function scoreConversation(record: ConversationRecord): ConversationScore {
  const turns = record.turns.map(scoreTurn);
  const failure = record.success || record.invalid ? undefined : failureOf(record, turns);
  return {
    id: record.id,
    kind: record.kind,
    success: record.success,
    firstFailingTurn: record.firstFailingTurn,
    turnsCompleted: record.turnsCompleted,
    turns,
    goldShown: turns.every((turn) => turn.goldShown !== false),
    ...(failure ? { failure } : {}),
    ...(record.invalid ? { invalid: record.invalid } : {}),
  };
}

function failureOf(record: ConversationRecord, turns: readonly TurnScore[]): ConversationFailure {
  const at = record.firstFailingTurn ?? 0;
  const turn = turns[at];
  if (!turn) return "turn_failed";
  if (turn.goldShown === false) return "tool_not_shown";
  if (turn.askNeeded && !turn.asked) return "did_not_ask";
  if (!turn.askNeeded && turn.asked) return "asked_needlessly";
  const limit = onsetlabLimit(record.turns[at]);
  if (limit) return limit;
  if (record.kind === "correct" && at > 0) return "forgot_correction";
  if (at > 0 && !turn.args) return "lost_reference";
  return "turn_failed";
}

/** The OnsetLab limit that explains a failing turn, when its run was configured with it. */
function onsetlabLimit(turn: TurnRecord | undefined): ConversationFailure | undefined {
  const run = turn?.runs.at(-1);
  if (!turn || !run) return undefined;
  const { score } = turn;
  if (run.config.planSteps === "one" && score.toolChoice.expected.length > 1 && run.toolCalls.length <= 1)
    return "onsetlab_one_step";
  const onlyAnswer = score.failures.length > 0 && score.failures.every((kind) => kind === "answer_mismatch");
  if (run.config.solverData === "per_result" && onlyAnswer) return "onsetlab_solver_cut";
  if (run.config.parser === "onsetlab" && score.failures.includes("wrong_value") && parserQuirk(run.plan))
    return "onsetlab_parser";
  return undefined;
}

/** A step the parser rewrote (its text is not the completion's) or whose quoted value an escaped quote cut. */
function parserQuirk(plan: AgentResult["plan"]): boolean {
  if (!plan) return false;
  const written = plan.raw.trim().startsWith("#E1") ? plan.raw : `#E1 = ${plan.raw.trim()}`;
  return plan.steps.some(
    (step) =>
      (step.raw !== undefined && !written.includes(step.raw)) ||
      Object.values(step.args).some((value) => typeof value === "string" && value.endsWith("\\")),
  );
}

export interface ConversationRow {
  model: string;
  config: string;
  conversations: number;
  invalid: number;
  success: Rate;
  /** Success on the conversations whose gold tools were all shown (the must-show figure). */
  successShown: Rate;
  turns: Rate;
  askedWhenNeeded: Rate;
  askedNeedlessly: Rate;
  byKind: Record<string, Rate>;
  /** Per 0-based turn index: the turns right among the conversations that reached it. */
  byTurnIndex: Rate[];
  /** Mean turns completed before the first failure. */
  meanTurnsCompleted: number | null;
  failures: Record<string, number>;
  repeats: RepeatRates | null;
}

export function summariseRow(model: string, config: string, scores: readonly ConversationScore[]): ConversationRow {
  const valid = scores.filter((score) => !score.invalid);
  const count = (list: readonly ConversationScore[]) => rate(list.filter((score) => score.success).length, list.length);
  const turns = valid.flatMap((score) => score.turns);
  const needed = turns.filter((turn) => turn.askNeeded);
  const unneeded = turns.filter((turn) => !turn.askNeeded);
  const depth = Math.max(0, ...valid.map((score) => score.turns.length));
  const failures: Record<string, number> = {};
  for (const score of valid) if (score.failure) failures[score.failure] = (failures[score.failure] ?? 0) + 1;
  return {
    model,
    config,
    conversations: scores.length,
    invalid: scores.length - valid.length,
    success: count(valid),
    successShown: count(valid.filter((score) => score.goldShown)),
    turns: rate(turns.filter((turn) => turn.ok).length, turns.length),
    askedWhenNeeded: rate(needed.filter((turn) => turn.asked).length, needed.length),
    askedNeedlessly: rate(unneeded.filter((turn) => turn.asked).length, unneeded.length),
    byKind: Object.fromEntries(
      CONVERSATION_KINDS.map((kind) => [kind, count(valid.filter((score) => score.kind === kind))]),
    ),
    byTurnIndex: Array.from({ length: depth }, (_, index) => {
      const reached = valid.flatMap((score) => score.turns.filter((turn) => turn.index === index));
      return rate(reached.filter((turn) => turn.ok).length, reached.length);
    }),
    meanTurnsCompleted:
      valid.length === 0 ? null : valid.reduce((sum, score) => sum + score.turnsCompleted, 0) / valid.length,
    failures,
    repeats: repeatRates(valid.map((score) => ({ item: { id: score.id }, score: { taskSuccess: score.success } }))),
  };
}
