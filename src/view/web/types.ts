/** The API's response bodies (SERVE contract), typed with the harness's own types where they are the same. */
import type { BenchProgress, RunManifest, RunRecord } from "../../bench/run/bench.ts";
import type { RunSummary } from "../../bench/run/compare-configs.ts";

export type RunLabel = "simulated" | "simulated (stand-in)" | "live";

export interface RunListEntry {
  runId: string;
  models: string[];
  matrix?: string;
  configs: string[];
  items: number;
  tasks: number;
  records: number;
  startedAt: string;
  finishedAt?: string;
  running: boolean;
  label: RunLabel;
  invalid: number;
}

export interface RunDetail {
  manifest: RunManifest;
  summary: RunSummary | null;
  progress: BenchProgress | null;
}

export type Outcome = "pass" | "fail" | "invalid";

export interface ItemRow {
  key: string;
  itemId: string;
  model: string;
  config: string;
  repeat: number;
  category: string;
  servers: string[];
  taskSuccess: boolean;
  failureClass?: string;
  invalid?: string;
}

export interface Page<T> {
  total: number;
  page: number;
  pageSize: number;
  rows: T[];
}

export interface Check {
  name: string;
  pass: boolean;
  why: string;
}

export type ItemDetail = RunRecord & { checks: Check[] };

export interface CompareSide {
  key: string;
  pass: boolean;
  failureClass?: string;
}

export interface CompareResult {
  counts: { both: number; aOnly: number; bOnly: number; neither: number };
  total: number;
  page?: number;
  pageSize?: number;
  rows: { itemId: string; category: string; servers: string[]; a: CompareSide | null; b: CompareSide | null }[];
}

export interface ModelInfo {
  name: string;
  provider: string;
  simulated: boolean;
}

export interface ConfigInfo {
  name: string;
  matrix?: string[];
}

export interface QueryHit {
  id: string;
  query: string;
  category: string;
}
