/**
 * Aggregates item scores into one row per model × configuration (and the same rows per category and
 * per server), plus the failure taxonomy table, the routing confusion matrix and the planner error
 * rates. Every rate carries its Wilson 95% interval; p50/p95 latencies carry a seeded bootstrap 95%
 * interval, so the same records always give the same summary.
 */

import { INVALID_REASONS, type InvalidReason } from "../../models/types.ts";
import { CATEGORIES, type DatasetItem } from "../dataset/types.ts";
import { bootstrapPercentileCIs, type PercentileEstimate } from "../stats/bootstrap.ts";
import { percentile } from "../stats/percentile.ts";
import { type CustomItemMetric, customMetrics } from "./metric-registry.ts";
import { ITEM_METRICS, type ItemMetric, type MetricRates } from "./metrics.ts";
import { PLANNER_ERROR_TYPES, type PlannerErrorType } from "./planner-output.ts";
import { pooledRateOf, type Rate, rateOf } from "./rate.ts";
import { type RepeatRates, repeatRates } from "./repeats.ts";
import { FAILURE_KINDS, type FailureKind, type ItemScore } from "./score-types.ts";

/** One scored item × model × configuration × repeat, as the results store keeps it. */
export interface ScoredRecord {
  model: string;
  config: string;
  item: DatasetItem;
  score: ItemScore;
  /** 0-based repeat index when items run more than once (default 0). */
  repeat?: number;
}

/** A bootstrap estimate; null when there was nothing to measure. */
export type Estimate = PercentileEstimate | null;

/** Rate fields (`taskSuccess` … `wrongInjectionRate`) are those of metrics.ts, in its order. */
export interface SummaryRow extends MetricRates {
  model: string;
  config: string;
  /** Null on a model × configuration row; the category or server on a breakdown row. */
  group: { by: "category" | "server"; value: string } | null;
  /** Items left out of the row because a model call's answer could not be scored, per reason. */
  invalid: Record<InvalidReason, number>;
  /** Valid items: what every rate and mean of the row is over. */
  n: number;
  callsPerItem: number | null;
  modelCallsPerItem: number | null;
  /** Of the model calls per item, those answered from the request cache (absent: none was). */
  cachedCallsPerItem?: number;
  promptTokensPerItem: number | null;
  completionTokensPerItem: number | null;
  /** Duplicate writes blocked, in all. */
  writeBlocks: number;
  /**
   * `native`: tool calls that came back as text (the server's template did not parse them), in all, and
   * the items with any. Absent from summaries made before they were counted.
   */
  toolCallsAsText?: TextCallCount;
  /** Per-item total latency. */
  p50Ms: Estimate;
  p95Ms: Estimate;
  latency: LatencyBreakdown;
  /** With `--repeats K` (K ≥ 2): pass^k and pass@k over the items (repeats.ts); null otherwise. */
  repeats: RepeatRates | null;
  /** The rates of registered metrics (metric-registry.ts), by name, in registration order. */
  custom: Record<string, Rate>;
  /** Items whose tool filter could not tell the tools apart (visibility `filterBlind`); absent when none. */
  filterBlind?: number;
}

export interface TextCallCount {
  calls: number;
  items: number;
}

/** Means per item unless named a percentile; provider timings are simulated for `sim:*` models. */
export interface LatencyBreakdown {
  modelCallP50Ms: Estimate;
  modelCallP95Ms: Estimate;
  modelMsPerItem: number | null;
  promptEvalMsPerItem: number | null;
  evalMsPerItem: number | null;
  /** Model load the server reported (cold start, a reload for another window): apart, in no latency above. */
  loadMsPerItem: number | null;
  toolsMsPerItem: number | null;
  overheadMsPerItem: number | null;
  overheadP50Ms: number | null;
  overheadP95Ms: number | null;
}

export interface FailureTableRow {
  model: string;
  config: string;
  n: number;
  failed: number;
  /** Failed items by their primary failure. */
  primary: Record<FailureKind, number>;
  /** Failed items listing the kind anywhere. */
  any: Record<FailureKind, number>;
  /** Items (failed or not) that recovered from the kind. */
  recovered: Record<FailureKind, number>;
}

export interface RoutingMatrix {
  model: string;
  config: string;
  /** counts[expected][predicted]. */
  counts: Record<string, Record<string, number>>;
  /** Items where the router did not run (a forced strategy). */
  notRouted: number;
}

export interface PlannerErrorRow {
  model: string;
  config: string;
  /** Planner outputs classified (items whose run made a ReWOO plan). */
  outputs: number;
  steps: number;
  /** Share of outputs showing each error type. */
  rates: Record<PlannerErrorType, Rate>;
  /** Steps showing each error type (output-level types count 0). */
  stepCounts: Record<PlannerErrorType, number>;
}

export interface Summary {
  rows: SummaryRow[];
  byCategory: SummaryRow[];
  byServer: SummaryRow[];
  failures: FailureTableRow[];
  routing: RoutingMatrix[];
  planner: PlannerErrorRow[];
  /** The registered metrics whose rates the rows' `custom` holds, so a report can label them without the module. */
  customMetrics: CustomMetricInfo[];
}

export type CustomMetricInfo = Pick<CustomItemMetric, "name" | "label" | "better" | "kind">;

export interface SummaryOptions {
  /** Bootstrap resamples for latency percentiles (default 1000). */
  resamples?: number;
  /** Bootstrap seed (default 1). */
  seed?: number;
}

/**
 * Invalid items (score.invalid: a prompt that overflowed, an output cut at its cap, a server failure)
 * are counted on their rows and left out of everything else: no rate, mean or table counts them.
 */
export function summarize(records: readonly ScoredRecord[], options: SummaryOptions = {}): Summary {
  const groups = groupBy(records, (record) => JSON.stringify([record.model, record.config]));
  const summary: Summary = {
    rows: [],
    byCategory: [],
    byServer: [],
    failures: [],
    routing: [],
    planner: [],
    customMetrics: customMetrics().map(({ name, label, better, kind }) => ({ name, label, better, kind })),
  };
  for (const all of groups.values()) {
    const { model, config } = all[0]!;
    const group = validRecords(all);
    summary.rows.push(summaryRow(model, config, null, all, options));
    for (const category of CATEGORIES) {
      const members = all.filter((record) => record.item.category === category);
      if (members.length > 0) {
        summary.byCategory.push(summaryRow(model, config, { by: "category", value: category }, members, options));
      }
    }
    const servers = [...new Set(all.flatMap((record) => record.item.servers))].sort();
    for (const server of servers) {
      const members = all.filter((record) => record.item.servers.includes(server));
      summary.byServer.push(summaryRow(model, config, { by: "server", value: server }, members, options));
    }
    summary.failures.push(failureTable(model, config, group));
    summary.routing.push(routingMatrix(model, config, group));
    summary.planner.push(plannerErrors(model, config, group));
  }
  return summary;
}

/** The records whose items can be scored (no invalid model call). */
export function validRecords(records: readonly ScoredRecord[]): ScoredRecord[] {
  return records.filter((record) => record.score.invalid === undefined);
}

/** Invalid items per reason. */
export function invalidCounts(records: readonly ScoredRecord[]): Record<InvalidReason, number> {
  const counts = zeroCounts(INVALID_REASONS);
  for (const { score } of records) if (score.invalid) counts[score.invalid]++;
  return counts;
}

function summaryRow(
  model: string,
  config: string,
  group: SummaryRow["group"],
  all: readonly ScoredRecord[],
  options: SummaryOptions,
): SummaryRow {
  const records = validRecords(all);
  const scores = records.map((record) => record.score);
  const latency = scores.map((score) => score.latency);
  const totals = latency.map((l) => l.totalMs);
  const overheads = latency.map((l) => l.overheadMs);
  const modelCalls = latency.flatMap((l) => l.modelCallMs);
  const [p50Ms, p95Ms] = medianAndTail(totals, options);
  const [modelCallP50Ms, modelCallP95Ms] = medianAndTail(modelCalls, options);
  const cached = scores.some((s) => s.cost.cachedCalls) ? mean(scores.map((s) => s.cost.cachedCalls ?? 0)) : null;
  const filterBlind = scores.filter((s) => s.visibility?.filterBlind).length;
  return {
    model,
    config,
    group,
    invalid: invalidCounts(all),
    n: scores.length,
    ...metricRates(scores),
    callsPerItem: mean(scores.map((s) => s.cost.toolCalls)),
    modelCallsPerItem: mean(scores.map((s) => s.cost.modelCalls)),
    ...(cached === null ? {} : { cachedCallsPerItem: cached }),
    promptTokensPerItem: mean(scores.map((s) => s.cost.promptTokens)),
    completionTokensPerItem: mean(scores.map((s) => s.cost.completionTokens)),
    writeBlocks: scores.reduce((sum, s) => sum + s.cost.writeBlocks, 0),
    toolCallsAsText: {
      calls: scores.reduce((sum, s) => sum + (s.toolCallsAsText ?? 0), 0),
      items: scores.filter((s) => (s.toolCallsAsText ?? 0) > 0).length,
    },
    p50Ms,
    p95Ms,
    latency: {
      modelCallP50Ms,
      modelCallP95Ms,
      modelMsPerItem: mean(latency.map((l) => l.modelMs)),
      promptEvalMsPerItem: mean(latency.map((l) => l.promptEvalMs)),
      evalMsPerItem: mean(latency.map((l) => l.evalMs)),
      loadMsPerItem: mean(latency.map((l) => l.loadMs)),
      toolsMsPerItem: mean(latency.map((l) => l.toolsMs)),
      overheadMsPerItem: mean(overheads),
      overheadP50Ms: nullIfNaN(percentile(overheads, 50)),
      overheadP95Ms: nullIfNaN(percentile(overheads, 95)),
    },
    repeats: repeatRates(records),
    custom: customRates(records),
    ...(filterBlind > 0 ? { filterBlind } : {}),
  };
}

function customRates(records: readonly ScoredRecord[]): Record<string, Rate> {
  return Object.fromEntries(
    customMetrics().map((metric) => [
      metric.name,
      metric.kind === "pooled"
        ? pooledRateOf(records, ({ score, item }) => metric.of(score, item))
        : rateOf(records, ({ score, item }) => metric.of(score, item)),
    ]),
  );
}

/** p50 and p95 with their bootstrap intervals, from one set of resamples. */
function medianAndTail(values: readonly number[], options: SummaryOptions): [Estimate, Estimate] {
  if (values.length === 0) return [null, null];
  const [p50, p95] = bootstrapPercentileCIs(values, [50, 95], {
    resamples: options.resamples ?? 1000,
    seed: options.seed ?? 1,
  });
  return [p50!, p95!];
}

/** Every metric's rate over the items, each followed by its split's, in list order (summary.json's field order). */
function metricRates(scores: readonly ItemScore[]): MetricRates {
  const rates: Record<string, Rate> = {};
  const metrics: readonly ItemMetric[] = ITEM_METRICS;
  for (const metric of metrics) {
    if (metric.kind === "pooled") {
      rates[metric.name] = pooledRateOf(scores, metric.of);
      continue;
    }
    rates[metric.name] = rateOf(scores, metric.of);
    for (const [name, test] of Object.entries(metric.split ?? {})) {
      rates[name] = rateOf(scores, (score) => (metric.of(score) === null ? null : test(score)));
    }
  }
  return rates as MetricRates;
}

function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

function nullIfNaN(value: number): number | null {
  return Number.isNaN(value) ? null : value;
}

function failureTable(model: string, config: string, records: readonly ScoredRecord[]): FailureTableRow {
  const primary = zeroCounts(FAILURE_KINDS);
  const any = zeroCounts(FAILURE_KINDS);
  const recovered = zeroCounts(FAILURE_KINDS);
  let failed = 0;
  for (const { score } of records) {
    if (score.failures.length > 0) {
      failed++;
      primary[score.failures[0]!]++;
    }
    for (const kind of score.failures) any[kind]++;
    for (const kind of score.recovered) recovered[kind]++;
  }
  return { model, config, n: records.length, failed, primary, any, recovered };
}

function routingMatrix(model: string, config: string, records: readonly ScoredRecord[]): RoutingMatrix {
  const counts: Record<string, Record<string, number>> = {};
  let notRouted = 0;
  for (const { score } of records) {
    if (!score.routing) {
      notRouted++;
      continue;
    }
    const { expected, predicted } = score.routing;
    const row = counts[expected] ?? {};
    row[predicted] = (row[predicted] ?? 0) + 1;
    counts[expected] = row;
  }
  return { model, config, counts, notRouted };
}

function plannerErrors(model: string, config: string, records: readonly ScoredRecord[]): PlannerErrorRow {
  const classified = records.flatMap(({ score }) => (score.planner ? [score.planner] : []));
  const stepCounts = zeroCounts(PLANNER_ERROR_TYPES);
  for (const output of classified) for (const step of output.steps) for (const type of step.errors) stepCounts[type]++;
  const rates = Object.fromEntries(
    PLANNER_ERROR_TYPES.map((type) => [type, rateOf(classified, (output) => output.errors.includes(type))]),
  ) as Record<PlannerErrorType, Rate>;
  return {
    model,
    config,
    outputs: classified.length,
    steps: classified.reduce((sum, output) => sum + output.steps.length, 0),
    rates,
    stepCounts,
  };
}

function zeroCounts<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;
}

/** Groups in order of first appearance. */
export function groupBy<T>(values: readonly T[], key: (value: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const value of values) {
    const k = key(value);
    const group = groups.get(k);
    if (group) group.push(value);
    else groups.set(k, [value]);
  }
  return groups;
}
