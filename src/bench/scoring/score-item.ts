/** Scores one item × model × configuration: every metric module over one trace. Pure; never throws on a trace. */

import { INVALID_REASONS, type InvalidReason } from "../../models/types.ts";
import type { DatasetItem } from "../dataset/types.ts";
import { scoreAbstention } from "./abstention.ts";
import { scoreAnswer } from "./answer.ts";
import { matchCalls } from "./call-match.ts";
import { countedCalls, hallucinatedNames, proposedCalls } from "./calls.ts";
import { scoreCost } from "./cost.ts";
import { diagnose, textCallsLeft } from "./failures.ts";
import { scoreLatency } from "./latency.ts";
import { scoreParams } from "./params.ts";
import { classifyPlannerOutput } from "./planner-output.ts";
import { scoreRescue } from "./rescue.ts";
import { scoreRouting } from "./routing.ts";
import type { ItemScore } from "./score-types.ts";
import { scoreState } from "./state.ts";
import { requirementsOf } from "./task-success.ts";
import { ToolCatalog } from "./tool-catalog.ts";
import { scoreToolChoice } from "./tool-choice.ts";
import type { StateCheckOutcome, ToolView, TraceView } from "./types.ts";
import { scoreVisibility } from "./visibility.ts";

export interface ScoreItemInput {
  item: DatasetItem;
  /** An AgentResult, or anything with the fields of TraceView. */
  trace: TraceView;
  /** What the runner got from the mock servers' `__check` for `item.state` (raw, before negation). */
  stateChecks: readonly StateCheckOutcome[];
  /** Every connected tool (a ToolDefinition[] fits), or a catalog built once per run. */
  tools: readonly ToolView[] | ToolCatalog;
}

export function scoreItem({ item, trace, stateChecks, tools }: ScoreItemInput): ItemScore {
  const catalog = tools instanceof ToolCatalog ? tools : new ToolCatalog(tools);
  const counted = countedCalls(trace, catalog);
  const proposed = proposedCalls(trace);
  const hallucinated = hallucinatedNames(trace, catalog);
  const matching = matchCalls(item.calls, counted, item.order === "sequence", catalog);
  const state = scoreState(item.state, stateChecks);
  const answer = scoreAnswer(item.id, item.answer, trace.answer);
  const abstention = scoreAbstention(item, proposed, counted, catalog);
  const requirements = requirementsOf({ item, trace, matching, abstention, state, answer });
  const taskSuccess = requirements.every((requirement) => requirement.ok);
  const planner = trace.plan ? classifyPlannerOutput(trace.plan.raw, item, catalog) : null;
  const visibility = scoreVisibility(item, trace);
  const { failures, recovered } = diagnose({
    item,
    trace,
    requirements,
    matching,
    counted,
    proposed,
    hallucinated,
    planner,
    catalog,
    hidden: visibility?.hidden ?? [],
  });
  return {
    itemId: item.id,
    category: item.category,
    taskSuccess,
    requirements,
    toolChoice: scoreToolChoice({ item, proposed, counted, matching, hallucinated, leftAsText: textCallsLeft(trace) }),
    params: scoreParams(item, counted, matching),
    state,
    answer,
    abstention,
    routing: scoreRouting(item, trace),
    visibility,
    rescue: scoreRescue(item, trace, taskSuccess, catalog),
    cost: scoreCost(trace, counted),
    latency: scoreLatency(trace),
    failures,
    recovered,
    ...textCallsOf(trace),
    planner,
    ...invalidOf(trace),
  };
}

function textCallsOf(trace: TraceView): { toolCallsAsText?: number } {
  const calls = (trace.toolCallsAsText ?? []).reduce((sum, found) => sum + found.calls.length, 0);
  return calls > 0 ? { toolCallsAsText: calls } : {};
}

/**
 * The item's invalid reason: the first of INVALID_REASONS that any of its model calls has. A router
 * answer cut at its cap is not one: the router reads only the answer's first word (ACTION / DIRECT),
 * and its few-token cap is how the question is asked, not a limit on the answer. Nor is a selector
 * answer cut at its cap: the names before the cut are read, and the ranking fills the rest.
 */
function invalidOf(trace: TraceView): { invalid?: InvalidReason } {
  const reasons = new Set(
    trace.modelCalls.map((call) =>
      (call.stage === "router" || call.stage === "select") && call.invalid === "output_truncated"
        ? undefined
        : call.invalid,
    ),
  );
  const invalid = INVALID_REASONS.find((reason) => reasons.has(reason));
  return invalid ? { invalid } : {};
}
