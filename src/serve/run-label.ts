/**
 * Whose answers a run's or a query's numbers are, as the API labels them: the simulator's, the
 * stand-in's (the simulator behind a real API), or a real model's. A stand-in's are never "live".
 */
import { STANDIN_LABEL } from "../report/provenance.ts";

export const RUN_LABELS = ["simulated", STANDIN_LABEL, "live"] as const;

export type RunLabel = (typeof RUN_LABELS)[number];

export function runLabel(source: { simulated?: boolean; standin?: boolean }): RunLabel {
  if (source.standin) return STANDIN_LABEL;
  return source.simulated ? "simulated" : "live";
}
