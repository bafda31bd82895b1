/** The perf part's public surface: each `pnpm bench:perf` measurement and its text. */

export { formatConversationTime, measureConversationTime } from "./conversation-time.ts";
export { formatFuzzReport, measureFuzz } from "./fuzz.ts";
export { measureHarness } from "./harness.ts";
export { measureMcp } from "./mcp.ts";
export { formatModelTime, measureModelTime } from "./model-time.ts";
export { formatMultiTurnRunPerf, measureMultiTurnRun } from "./multi-turn-run.ts";
export { formatViewPerf, measureView } from "./view.ts";
export { formatViewPagePerf, measureViewPage } from "./view-page.ts";
