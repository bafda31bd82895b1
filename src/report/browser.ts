/** What the viewer's browser code may load from the report: the table builders, formats and page style, none of which imports a Node module. */

export { DEFAULT_REFERENCE } from "./ablation.ts";
export { percentText, rateText } from "./format.ts";
export { renderNotes, renderTable, TABLE_STYLE } from "./html.ts";
export { labelled, provenanceLabel, STANDIN_LABEL } from "./provenance.ts";
export { type RunSet, runSetOf } from "./run-set.ts";
export { PALETTE } from "./svg.ts";
export type { ReportTable } from "./table.ts";
export { ablationTables } from "./tables/ablations.ts";
export { breakdownTable } from "./tables/breakdown.ts";
export { costTable } from "./tables/cost.ts";
export { failureRows, failureTable, occurringKinds, recoveredTable } from "./tables/failures.ts";
export { leaderboardTable, summaryRows } from "./tables/leaderboard.ts";
export { plannerTable } from "./tables/planner.ts";
export { routingTable } from "./tables/routing.ts";
