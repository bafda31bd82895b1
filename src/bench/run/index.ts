/** The run part's public surface: start, resume, merge and remove benchmark runs, read their stored files, estimate their cost. */

export {
  type AgentQueryOptions,
  type AgentQueryOutcome,
  openQueryServers,
  runAgentQuery,
  UnknownItemError,
  UnknownToolError,
} from "./agent-query.ts";
export { type BenchOptions, type BenchOutcome, type BenchProgress, type RunPlan, runBench } from "./bench.ts";
export {
  type ConfigComparison,
  type ConversationSummary,
  compareConfigurations,
  type PromptCacheUse,
  type RunSummary,
} from "./compare-configs.ts";
export { DryRunToolHost } from "./dry-run.ts";
export { type BenchEstimate, estimateRun, type ModelEstimate } from "./estimate.ts";
export { readManifest } from "./manifest.ts";
export { parseShard } from "./matrix.ts";
export { mergeRuns } from "./merge.ts";
export { findRecord } from "./record-view.ts";
export { pruneRuns, removeRuns } from "./remove.ts";
export { mockWorldContext, modelsOfMatrix, versions } from "./resolve-request.ts";
export {
  type BenchRequest,
  type ResolvedConfig,
  type RunManifest,
  type RunModel,
  type RunRecord,
  type StoredRecord,
  withTrace,
} from "./run-file-types.ts";
export { forEachRunRecord, RUN_FORMAT, readRunRecord, SUMMARY_FORMAT, upgradeSummary } from "./run-format.ts";
export { harnessRedactor, logRedactor } from "./secrets.ts";
export {
  countRows,
  countRowsFrom,
  flushOpenAppenders,
  forEachJsonl,
  listRunIds,
  PLAIN_RUN_FILES,
  type RowLocation,
  RUN_FILES,
  readJson,
  readJsonChecked,
  resultsRoot,
  runDir,
  runFile,
  writeJsonAtomic,
} from "./store.ts";
export { sequentialText } from "./until-significant.ts";
