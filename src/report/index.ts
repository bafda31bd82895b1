/** The report part's public surface: reports, tables, baselines and gates over stored runs, in text, markdown, HTML and CSV. */

export { DEFAULT_REFERENCE } from "./ablation.ts";
export { buildBaseline, policyFor, readBaseline, writeBaseline } from "./baseline.ts";
export { bfclLeaderboardTable, loadBfclFigures } from "./bfcl.ts";
export { compareRunsTable, type RunSide } from "./compare-runs.ts";
export { renderCsv } from "./csv.ts";
export { GateFailedError, RunSetError } from "./errors.ts";
export { filterBlindWarnings } from "./filter-blind.ts";
export { NOT_APPLICABLE, numberText, percentText } from "./format.ts";
export { checkSameMatrix, runGate, verdictTally } from "./gate.ts";
export { renderGate } from "./gate-text.ts";
export { INVALID_LIMIT, invalidText, invalidWarnings, rowsOverInvalidLimit } from "./invalid.ts";
export { markdownTable } from "./markdown.ts";
export { loadOutcomes, mergeOutcomes, writeOutcomesFile } from "./outcomes.ts";
export { shownPath } from "./paths.ts";
export { provenanceLabel, STANDIN_LABEL } from "./provenance.ts";
export { buildReport } from "./report.ts";
export { readSummary } from "./run-files-check.ts";
export { isComplete } from "./run-set.ts";
export { loadRunSet } from "./runs.ts";
export { BORDERLESS, renderTerminal, stackedTable, TERMINAL_WIDTH } from "./terminal.ts";
export { textCallsText, textCallWarnings } from "./text-calls.ts";
export { writeReport } from "./write.ts";
