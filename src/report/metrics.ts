/**
 * The per-item metrics the gate and run comparisons work on: the scorer's own list (scoring/metrics.ts),
 * the one summarize.ts counts summary.json from, so a metric's k/n here equals its k/n there.
 */
export {
  BINARY_METRICS,
  type BinaryMetric,
  type Direction,
  type MetricName,
  metricInfo,
  POOLED_METRICS,
  type PooledMetric,
} from "../bench/scoring/metrics.ts";
