/** The scorer's public API: score one run, summarize runs, compare two configurations. */
export { AnswerCheckSpecError } from "./answer.ts";
export { checkCallArgs, type ExpectedArgs, matchJsonArgs } from "./arg-match.ts";
export { type Comparison, compare, DuplicatePairKeyError, type PairedTest } from "./compare.ts";
export { invalidTotal } from "./invalid-total.ts";
export {
  type CustomItemMetric,
  clearCustomMetrics,
  customMetrics,
  defineMetric,
  loadMetricModules,
  registerMetric,
} from "./metric-registry.ts";
export {
  BINARY_METRICS,
  type BinaryItemMetric,
  type BinaryMetric,
  type BinaryOutcome,
  type Direction,
  ITEM_METRICS,
  type ItemMetric,
  type MetricName,
  type MetricRates,
  metricInfo,
  POOLED_METRICS,
  type PooledItemMetric,
  type PooledMetric,
  type PooledOutcome,
  type SplitName,
} from "./metrics.ts";
export { readPlanText } from "./plan-text.ts";
export {
  classifyPlannerOutput,
  PLANNER_ERROR_TYPES,
  type PlannerClassification,
  type PlannerErrorType,
  type PlannerStepClass,
} from "./planner-output.ts";
export { pooledRateOf, type Rate, rate, rateOf } from "./rate.ts";
export { type RepeatRates, repeatRates } from "./repeats.ts";
export { type ScoreItemInput, scoreItem } from "./score-item.ts";
export {
  FAILURE_KINDS,
  type FailureKind,
  type ItemScore,
  type Requirement,
  type RequirementName,
  type VisibilityScore,
} from "./score-types.ts";
export {
  type CustomMetricInfo,
  type Estimate,
  type FailureTableRow,
  groupBy,
  invalidCounts,
  type PlannerErrorRow,
  type RoutingMatrix,
  type ScoredRecord,
  type Summary,
  type SummaryOptions,
  type SummaryRow,
  summarize,
  validRecords,
} from "./summarize.ts";
export { ToolCatalog } from "./tool-catalog.ts";
export type { StateCheckOutcome, ToolView, TraceView } from "./types.ts";
