/**
 * The per-item metrics the gate and run comparisons work on, read from an item's score exactly as the
 * scorer's summary counts them (summarize.ts), so a metric's k/n here equals its k/n in summary.json —
 * outcomes.test.ts holds the two to that.
 */
import type { ItemScore } from "../bench/scoring/index.ts";

/** Metrics where each item is one trial (true, false, or not applicable). */
export const BINARY_METRICS = [
  { name: "taskSuccess", label: "task success", better: "higher", of: (s: ItemScore) => s.taskSuccess },
  { name: "toolChoice", label: "tool choice", better: "higher", of: (s: ItemScore) => s.toolChoice.callSet },
  { name: "firstCall", label: "first call", better: "higher", of: (s: ItemScore) => s.toolChoice.firstCall },
  {
    name: "hallucination",
    label: "hallucinated tool",
    better: "lower",
    of: (s: ItemScore) => s.toolChoice.hallucinated.length > 0,
  },
  { name: "stateAccuracy", label: "end state", better: "higher", of: (s: ItemScore) => s.state?.ok ?? null },
  { name: "answerAccuracy", label: "answer", better: "higher", of: (s: ItemScore) => s.answer?.ok ?? null },
  { name: "abstention", label: "abstention", better: "higher", of: (s: ItemScore) => s.abstention?.ok ?? null },
  { name: "routeAccuracy", label: "routing", better: "higher", of: (s: ItemScore) => s.routing?.ok ?? null },
  {
    name: "rescueRate",
    label: "rescue rate",
    better: "higher",
    of: (s: ItemScore) => (s.rescue?.firstPlanFailed ? s.rescue.recovered : null),
  },
] as const satisfies readonly {
  name: string;
  label: string;
  better: Direction;
  of: (s: ItemScore) => boolean | null;
}[];

/** Metrics pooled over several trials per item (arguments, calls, injections): k of n per item. */
export const POOLED_METRICS = [
  {
    name: "paramAccuracy",
    label: "param accuracy",
    better: "higher",
    of: (s: ItemScore) => [s.params.argsCorrect, s.params.argsTotal],
  },
  {
    name: "callAccuracy",
    label: "call accuracy",
    better: "higher",
    of: (s: ItemScore) => [s.params.callsCorrect, s.params.callsExpected],
  },
  {
    name: "wrongInjectionRate",
    label: "wrong rescue injections",
    better: "lower",
    of: (s: ItemScore) => [s.rescue?.wrong.length ?? 0, s.rescue?.judged ?? 0],
  },
] as const satisfies readonly {
  name: string;
  label: string;
  better: Direction;
  of: (s: ItemScore) => [number, number];
}[];

export type Direction = "higher" | "lower";
export type BinaryMetric = (typeof BINARY_METRICS)[number]["name"];
export type PooledMetric = (typeof POOLED_METRICS)[number]["name"];
export type MetricName = BinaryMetric | PooledMetric;

export function metricInfo(name: MetricName): { label: string; better: Direction; kind: "binary" | "pooled" } {
  const binary = BINARY_METRICS.find((metric) => metric.name === name);
  if (binary) return { label: binary.label, better: binary.better, kind: "binary" };
  const pooled = POOLED_METRICS.find((metric) => metric.name === name)!;
  return { label: pooled.label, better: pooled.better, kind: "pooled" };
}
