/** The API's response bodies: the server's own types (type imports only: nothing of the server is bundled). */

export type { RunQueryResponse } from "../../serve/agent-routes.ts";
export type { Check, ItemDetail } from "../../serve/checks.ts";
export type { ComparePage, ItemPage, RunDetail, RunListEntry } from "../../serve/service.ts";

export interface ModelInfo {
  name: string;
  provider: string;
  simulated: boolean;
}

export interface ConfigInfo {
  name: string;
  matrix?: string[];
  /** The agent definition the configuration runs (models.yaml `agent:`). */
  agent?: { file: string; protocol: string; hash: string };
}

export interface QueryHit {
  id: string;
  query: string;
  category: string;
}
