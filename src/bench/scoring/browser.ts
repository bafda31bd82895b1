/** What the viewer's browser code may load from the scorer: rates, failure kinds and the summary's row types. */

export type { PairedTest } from "./compare.ts";
export { invalidTotal } from "./invalid-total.ts";
export { PLANNER_ERROR_TYPES } from "./planner-output.ts";
export { type Rate, rate } from "./rate.ts";
export { FAILURE_KINDS, type FailureKind } from "./score-types.ts";
export type { CustomMetricInfo, FailureTableRow, SummaryRow } from "./summarize.ts";
