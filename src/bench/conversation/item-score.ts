/**
 * A whole conversation as one item score, so the run's summary, outcomes, gate, merge and report read a
 * conversation record as they read any record: task success is the conversation's success (every turn
 * right, asked exactly when needed); the other metrics pool the turns (tool choice holds when it held on
 * every turn that had gold calls, arguments and calls add up, costs and times add up). The failure kinds
 * are those of the first failing turn; a turn that failed only because the agent asked where nothing
 * was missing gets `asked_needlessly`, so the failure tables count it (its conversation class is in the
 * summary's conversation block too).
 */
import type { Category } from "../dataset/types.ts";
import type { FailureKind, ItemScore, Requirement, RequirementName } from "../scoring/score-types.ts";
import type { ConversationRecord } from "./run-conversation.ts";

export function conversationItemScore(record: ConversationRecord, category: Category): ItemScore {
  const scores = record.turns.map((turn) => turn.score);
  const failing = record.firstFailingTurn === null ? undefined : scores[record.firstFailingTurn];
  const sum = (of: (score: ItemScore) => number) => scores.reduce((total, score) => total + of(score), 0);
  const present = <T>(of: (score: ItemScore) => T | null) =>
    scores.map(of).filter((value): value is T => value !== null);
  const states = present((score) => score.state);
  const answers = present((score) => score.answer);
  const abstentions = present((score) => score.abstention);
  const routings = present((score) => score.routing);
  const visibilities = present((score) => score.visibility);
  const callSets = present((score) => score.toolChoice.callSet);
  const asText = sum((score) => score.toolCallsAsText ?? 0);
  const cached = sum((score) => score.cost.cachedCalls ?? 0);
  const totalMs = sum((score) => score.latency.totalMs);
  return {
    itemId: record.id,
    category,
    taskSuccess: record.success && !record.invalid,
    requirements: requirements(scores),
    toolChoice: {
      expected: scores.flatMap((score) => score.toolChoice.expected),
      called: scores.flatMap((score) => score.toolChoice.called),
      firstCall: present((score) => score.toolChoice.firstCall)[0] ?? null,
      callSet: callSets.length === 0 ? null : callSets.every(Boolean),
      hallucinated: [...new Set(scores.flatMap((score) => score.toolChoice.hallucinated))],
    },
    params: {
      argsCorrect: sum((score) => score.params.argsCorrect),
      argsTotal: sum((score) => score.params.argsTotal),
      callsCorrect: sum((score) => score.params.callsCorrect),
      callsExpected: sum((score) => score.params.callsExpected),
      pairings: scores.flatMap((score) => score.params.pairings),
    },
    state:
      states.length === 0
        ? null
        : { checks: states.flatMap((state) => state.checks), ok: states.every((state) => state.ok) },
    answer:
      answers.length === 0
        ? null
        : { ok: answers.every((answer) => answer.ok), failed: answers.flatMap((answer) => answer.failed) },
    abstention: abstentions.find((abstention) => !abstention.ok) ?? abstentions[0] ?? null,
    routing: routings.find((routing) => !routing.ok) ?? routings[0] ?? null,
    visibility:
      visibilities.length === 0
        ? null
        : {
            shown: visibilities.every((visibility) => visibility.shown),
            hidden: [...new Set(visibilities.flatMap((visibility) => visibility.hidden))],
            toolsShown: Math.max(...visibilities.map((visibility) => visibility.toolsShown)),
            toolsConnected: Math.max(...visibilities.map((visibility) => visibility.toolsConnected)),
          },
    rescue: failing?.rescue ?? present((score) => score.rescue)[0] ?? null,
    cost: {
      modelCalls: sum((score) => score.cost.modelCalls),
      promptTokens: sum((score) => score.cost.promptTokens),
      completionTokens: sum((score) => score.cost.completionTokens),
      toolCalls: sum((score) => score.cost.toolCalls),
      writeBlocks: sum((score) => score.cost.writeBlocks),
      ...(cached > 0 ? { cachedCalls: cached } : {}),
    },
    latency: {
      totalMs,
      modelMs: sum((score) => score.latency.modelMs),
      toolsMs: sum((score) => score.latency.toolsMs),
      overheadMs: sum((score) => score.latency.overheadMs),
      promptEvalMs: sum((score) => score.latency.promptEvalMs),
      evalMs: sum((score) => score.latency.evalMs),
      loadMs: sum((score) => score.latency.loadMs),
      modelCallMs: scores.flatMap((score) => score.latency.modelCallMs),
    },
    failures:
      record.success || record.firstFailingTurn === null ? [] : turnFailures(record.turns[record.firstFailingTurn]),
    recovered: [...new Set(scores.flatMap((score) => score.recovered))],
    ...(asText > 0 ? { toolCallsAsText: asText } : {}),
    planner: failing?.planner ?? present((score) => score.planner)[0] ?? null,
    ...(record.invalid ? { invalid: record.invalid } : {}),
  };
}

/** The failing turn's kinds; a turn whose only fault is a needless question has none of its own. */
function turnFailures(turn: ConversationRecord["turns"][number] | undefined): FailureKind[] {
  if (!turn) return [];
  if (turn.score.failures.length > 0) return [...turn.score.failures];
  return turn.asked && !turn.askNeeded ? ["asked_needlessly"] : [];
}

/** Each requirement a turn asked for, held when it held on every turn that asked for it. */
function requirements(scores: readonly ItemScore[]): Requirement[] {
  const held = new Map<RequirementName, boolean>();
  for (const score of scores)
    for (const requirement of score.requirements)
      held.set(requirement.name, (held.get(requirement.name) ?? true) && requirement.ok);
  return [...held].map(([name, ok]) => ({ name, ok }));
}
