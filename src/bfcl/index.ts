/** The BFCL part's public surface: import BFCL data into datasets, its tool hosts, multi-turn environments and conversations, live data, uplift and its reports. */

export { availableCategories } from "./catalog.ts";
export { type BfclDataOptions, checkCategories, loadBfclDataset, questionOfItem } from "./dataset.ts";
export { openBfclHost } from "./host.ts";
export { BFCL_SERVER, bfclFunctionToTool } from "./import.ts";
export { auditLiveCategory } from "./live.ts";
export { ADDITIONAL_FUNCTION_PROMPT, multiTurnCategoriesOf, truthCall } from "./multi-turn/conversation.ts";
export {
  MultiTurnDataset,
  type MultiTurnRow,
  MultiTurnRun,
  type MultiTurnRunVerdict,
  summariseMultiTurn,
  withBfclTurnLimits,
} from "./multi-turn/conversation-run.ts";
export { formatMultiTurnPerf, measureMultiTurn } from "./multi-turn/perf.ts";
export { DEFAULT_BFCL_DATA_DIR, DEFAULT_BFCL_V4_DATA_DIR } from "./paths.ts";
export { formatBfclPerf, measureBfclScoring } from "./perf.ts";
export { toJsonReports, toTerminalReports } from "./report.ts";
export { resolveResultDirs, scoreResultDir } from "./score-dir.ts";
export { runUplift } from "./uplift.ts";
export { renderUpliftFiles, upliftTerminal } from "./uplift-report.ts";
export { summarizeUplift } from "./uplift-summary.ts";
export { writeBfclDataset } from "./write-dataset.ts";
