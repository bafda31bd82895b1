/** What the viewer's browser code may load from serve: the response types of its routes and the run labels. */

export type { RunQueryResponse } from "./agent-routes.ts";
export type { Check, ItemDetail } from "./checks.ts";
export { runLabel } from "./run-label.ts";
export type { ComparePage, ItemPage, RunDetail, RunListEntry } from "./service.ts";
