/**
 * The per-item metrics, defined once: how each is read from an item's score, which way is better, and
 * whether an item is one trial (binary) or several pooled (k of n). The summary counts its rate fields
 * from this list (summarize.ts) and the report reads the same per-item outcomes for the gate and paired
 * comparisons, so a metric's k/n is the same everywhere. The list's order is the summary row's field
 * order (summary.json is diffed, so it is kept).
 */
import type { Rate } from "./rate.ts";
import type { ItemScore } from "./score-types.ts";

export type Direction = "higher" | "lower";
/** An item's single trial: true, false, or null when the metric does not apply to it. */
export type BinaryOutcome = boolean | null;
/** An item's trials: k right of n. */
export type PooledOutcome = [k: number, n: number];

interface MetricCommon {
  /** The summary row's field. */
  name: string;
  label: string;
  better: Direction;
}

export interface BinaryItemMetric extends MetricCommon {
  kind: "binary";
  of: (score: ItemScore) => BinaryOutcome;
  /**
   * Rates over the same items, one per way its success came about (summary fields right after the
   * metric's own); each test is asked only where the metric applies.
   */
  split?: Readonly<Record<string, (score: ItemScore) => boolean>>;
}

export interface PooledItemMetric extends MetricCommon {
  kind: "pooled";
  of: (score: ItemScore) => PooledOutcome;
}

export type ItemMetric = BinaryItemMetric | PooledItemMetric;

export const ITEM_METRICS = [
  { name: "taskSuccess", label: "task success", better: "higher", kind: "binary", of: (s) => s.taskSuccess },
  // Items with gold calls whose set of tools was called (tool-choice.ts `callSet`).
  { name: "toolChoice", label: "tool choice", better: "higher", kind: "binary", of: (s) => s.toolChoice.callSet },
  // Items with gold calls whose first chosen tool was right.
  { name: "firstCall", label: "first call", better: "higher", kind: "binary", of: (s) => s.toolChoice.firstCall },
  // Items where the model used at least one tool name that does not exist.
  {
    name: "hallucination",
    label: "hallucinated tool",
    better: "lower",
    kind: "binary",
    of: (s) => s.toolChoice.hallucinated.length > 0,
  },
  // Right arguments over judged arguments.
  {
    name: "paramAccuracy",
    label: "param accuracy",
    better: "higher",
    kind: "pooled",
    of: (s) => [s.params.argsCorrect, s.params.argsTotal],
  },
  // Gold calls matched with name and all arguments.
  {
    name: "callAccuracy",
    label: "call accuracy",
    better: "higher",
    kind: "pooled",
    of: (s) => [s.params.callsCorrect, s.params.callsExpected],
  },
  { name: "stateAccuracy", label: "end state", better: "higher", kind: "binary", of: (s) => s.state?.ok ?? null },
  { name: "answerAccuracy", label: "answer", better: "higher", kind: "binary", of: (s) => s.answer?.ok ?? null },
  // Irrelevant and missing_info items that abstained correctly.
  { name: "abstention", label: "abstention", better: "higher", kind: "binary", of: (s) => s.abstention?.ok ?? null },
  // Items where the router ran and chose the expected route.
  { name: "routeAccuracy", label: "routing", better: "higher", kind: "binary", of: (s) => s.routing?.ok ?? null },
  // Of items whose first ReWOO plan failed: recovered in all, by the rescue, by the fallback.
  {
    name: "rescueRate",
    label: "rescue rate",
    better: "higher",
    kind: "binary",
    of: (s) => (s.rescue?.firstPlanFailed ? s.rescue.recovered : null),
    split: {
      byRescue: (s) => s.rescue?.recoveredBy === "rescue",
      byFallback: (s) => s.rescue?.recoveredBy === "fallback",
    },
  },
  // Judged rescue injections that were wrong.
  {
    name: "wrongInjectionRate",
    label: "wrong rescue injections",
    better: "lower",
    kind: "pooled",
    of: (s) => [s.rescue?.wrong.length ?? 0, s.rescue?.judged ?? 0],
  },
  // Items with gold calls whose gold tools were all in the prompt (planner / ReAct; native, jsonl: all tools).
  {
    name: "goldVisible",
    label: "gold tools shown",
    better: "higher",
    kind: "binary",
    of: (s) => s.visibility?.shown ?? null,
  },
] as const satisfies readonly ItemMetric[];

type Listed = (typeof ITEM_METRICS)[number];
type ListedBinary = Extract<Listed, { kind: "binary" }>;
type ListedPooled = Extract<Listed, { kind: "pooled" }>;

export type BinaryMetric = ListedBinary["name"];
export type PooledMetric = ListedPooled["name"];
export type MetricName = Listed["name"];
/** The summary fields of splits (`byRescue`, `byFallback`). */
export type SplitName = keyof Extract<Listed, { split: object }>["split"];
/** A summary row's rate fields: every metric's and every split's. */
export type MetricRates = Record<MetricName | SplitName, Rate>;

/** Metrics where each item is one trial, in list order. */
export const BINARY_METRICS: readonly ListedBinary[] = ITEM_METRICS.filter(
  (metric): metric is ListedBinary => metric.kind === "binary",
);
/** Metrics pooled over several trials per item (arguments, calls, injections), in list order. */
export const POOLED_METRICS: readonly ListedPooled[] = ITEM_METRICS.filter(
  (metric): metric is ListedPooled => metric.kind === "pooled",
);

export function metricInfo(name: MetricName): { label: string; better: Direction; kind: ItemMetric["kind"] } {
  const { label, better, kind } = ITEM_METRICS.find((metric) => metric.name === name)!;
  return { label, better, kind };
}
