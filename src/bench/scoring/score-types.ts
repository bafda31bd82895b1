/**
 * What the scorer produces for one item × model × configuration: `ItemScore`, plain JSON (no
 * undefined, no NaN — a metric that does not apply to the item is `null`), written into every record.
 */

import type { InvalidReason } from "../../models/types.ts";
import type { Category, ExpectedRoute } from "../dataset/types.ts";
import type { ArgErrorType } from "./arg-match.ts";
import type { PlannerClassification } from "./planner-output.ts";

/**
 * Why an item failed (or, in `recovered`, what went wrong on the way but was repaired). The rule for
 * each kind is in failures.ts.
 */
export type FailureKind =
  | "timeout"
  | "model_error"
  | "no_answer"
  | "tool_not_shown"
  | "tool_call_as_text"
  | "missed_abstention"
  | "parse_failure"
  | "hallucinated_tool"
  | "wrong_tool"
  | "missing_required"
  | "wrong_param_name"
  | "type_error"
  | "wrong_value"
  | "wrong_order"
  | "missing_call"
  | "extra_call"
  | "blocked_duplicate_write"
  | "state_mismatch"
  | "answer_mismatch"
  /** A conversation turn right in everything but a question it did not need (conversation/item-score.ts). */
  | "asked_needlessly";

/** Precedence: the first kind of an item's list in this order is its primary failure. */
export const FAILURE_KINDS: readonly FailureKind[] = [
  "timeout",
  "model_error",
  "no_answer",
  "tool_not_shown",
  "tool_call_as_text",
  "missed_abstention",
  "parse_failure",
  "hallucinated_tool",
  "wrong_tool",
  "missing_required",
  "wrong_param_name",
  "type_error",
  "wrong_value",
  "wrong_order",
  "missing_call",
  "extra_call",
  "blocked_duplicate_write",
  "state_mismatch",
  "answer_mismatch",
  "asked_needlessly",
];

export interface ToolChoiceScore {
  /** Tools of the gold calls, in gold order. */
  expected: string[];
  /** Tools of the calls that count (reached a server), in call order. */
  called: string[];
  /** The model's first chosen tool is right (the first gold tool; any gold tool for `order: any`). Null without gold calls. */
  firstCall: boolean | null;
  /** Every gold call's tool called by a distinct counted call (in order for `sequence`). Null without gold calls. */
  callSet: boolean | null;
  /** Tool names the model used that no tool definition has (plan steps, loop actions, calls). */
  hallucinated: string[];
}

export interface ArgResult {
  param: string;
  ok: boolean;
  /** The matcher's error type when not ok. */
  error?: ArgErrorType;
}

/** One gold call and the counted call paired with it. */
export interface CallPairing {
  /** Index into the item's `calls`. */
  expected: number;
  tool: string;
  /** ToolCallRecord.seq of the paired call; null when no call of that tool was made. */
  actualSeq: number | null;
  /** Name and every argument right (and in order, for `sequence`). */
  correct: boolean;
  /** Per-argument verdicts of the pairing (empty without a paired call). */
  args: ArgResult[];
}

export interface ParamScore {
  /** Correct arguments over the expected-or-given arguments of the paired calls. */
  argsCorrect: number;
  argsTotal: number;
  /** Gold calls matched with name and all arguments right. */
  callsCorrect: number;
  callsExpected: number;
  pairings: CallPairing[];
}

export interface StateCheckResult {
  server: string;
  /** The named check, or a tool-call check's tool and expectation (`list_files → contains "a.txt"`). */
  expect: string;
  negate: boolean;
  /** The check's own result (before negation); false when the runner reported no outcome for it. */
  pass: boolean;
  /** The item's requirement: `pass`, or `!pass` for a negated check. */
  ok: boolean;
  detail: string;
}

export interface StateScore {
  checks: StateCheckResult[];
  ok: boolean;
}

export interface AnswerScore {
  ok: boolean;
  /** Each failed part, e.g. `contains "Login fails"`. */
  failed: string[];
}

export interface AbstentionScore {
  /** `irrelevant`: no tool call at all; `missing_info`: no call to a forbidden tool. */
  rule: "no_call" | "no_forbidden_call";
  ok: boolean;
  /** Tools called in violation of the rule. */
  offending: string[];
}

export interface RoutingScore {
  expected: ExpectedRoute;
  /** The router's decision, lower-cased (`direct` | `rewoo` | `react`). */
  predicted: string;
  ok: boolean;
  /** Which router rule decided. */
  rule: string;
}

export interface WrongInjection {
  tool: string;
  param: string;
  value: unknown;
  pattern: string;
}

export interface RescueScore {
  /** A round-0 step failed or was skipped, or the planner wrote no step where calls were needed. */
  firstPlanFailed: boolean;
  /** First plan failed and the item still succeeded. */
  recovered: boolean;
  /** What repaired it: the ReAct fallback, else the rescue; `none` when not recovered. */
  recoveredBy: "rescue" | "fallback" | "none";
  /** Values the rescue injected. */
  injections: number;
  /** Injections the gold labels can judge (the param is in a gold call of that tool, or missing_info's absent value). */
  judged: number;
  wrong: WrongInjection[];
}

export interface CostScore {
  modelCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** Tool calls that reached a server. */
  toolCalls: number;
  /** Duplicate writes the write guard blocked. */
  writeBlocks: number;
  /** Of `modelCalls`, those answered from the request cache (absent: none). */
  cachedCalls?: number;
}

/**
 * Times in ms. `totalMs`, `modelMs`, `toolsMs` are the agent's wall-clock measures; `overheadMs` is
 * everything else (harness, parsing, prompts), never negative. `promptEvalMs` / `evalMs` / `loadMs`
 * are what providers reported (simulated for `sim:*`; absent from some servers, then 0), so they need
 * not add up to `modelMs`.
 */
export interface LatencyScore {
  totalMs: number;
  modelMs: number;
  toolsMs: number;
  overheadMs: number;
  promptEvalMs: number;
  evalMs: number;
  loadMs: number;
  /** Wall-clock duration of each model call, in order. */
  modelCallMs: number[];
}

/** Whether the prompt showed the gold tools (visibility.ts). */
export interface VisibilityScore {
  /** Every gold tool was in the prompt. */
  shown: boolean;
  /** Gold tools the prompt did not list. */
  hidden: string[];
  /** Tools the prompt listed, and tools connected (the session's). */
  toolsShown: number;
  toolsConnected: number;
  /** The filter could not tell the tools apart (every score 0): the tools shown were the first in order. */
  filterBlind?: true;
}

/** One part of task success and whether it held; only the parts the item asks for are listed. */
export type RequirementName = "no_run_error" | "calls" | "no_extra_write" | "abstention" | "state" | "answer";

export interface Requirement {
  name: RequirementName;
  ok: boolean;
}

export interface ItemScore {
  itemId: string;
  category: Category;
  taskSuccess: boolean;
  requirements: Requirement[];
  toolChoice: ToolChoiceScore;
  params: ParamScore;
  state: StateScore | null;
  answer: AnswerScore | null;
  abstention: AbstentionScore | null;
  routing: RoutingScore | null;
  /** Null for items without gold calls and for runs that showed no tool list (a direct answer). */
  visibility: VisibilityScore | null;
  /** Null unless the run made a ReWOO plan. */
  rescue: RescueScore | null;
  cost: CostScore;
  latency: LatencyScore;
  /** Why the item failed, primary first; empty exactly when it succeeded. */
  failures: FailureKind[];
  /** Problems the run had and got past (a rescued parameter, a blocked duplicate write …), not in `failures`. */
  recovered: FailureKind[];
  /**
   * `native`: tool calls to offered tools that came back as text, not parsed by the server (executed or
   * not: `native-recover` executes them). Absent when there were none.
   */
  toolCallsAsText?: number;
  /** The planner's raw output classified against the gold calls; null unless the run made a ReWOO plan. */
  planner: PlannerClassification | null;
  /**
   * Present when a model call's answer could not be scored (its prompt overflowed the window, its output
   * hit the cap, the server failed): the item is left out of every rate and counted apart, never as wrong.
   */
  invalid?: InvalidReason;
}
