/** What the viewer's browser code may load from the run: the types of a run's files and of its live progress. */

export type { BenchProgress } from "./bench.ts";
export type { ConfigComparison, PromptCacheUse, RunSummary } from "./compare-configs.ts";
export type { ResolvedConfig, RunManifest } from "./run-file-types.ts";
