/**
 * Whose answers a run's or a query's numbers are, as the API labels them: the simulator's, the
 * stand-in's (the simulator behind a real API), or a real model's. A stand-in's are never "live".
 */
import { inProcessSimulator, type Provenance } from "../models/provenance.ts";
import { STANDIN_LABEL } from "../report/provenance.ts";

export const RUN_LABELS = ["simulated", STANDIN_LABEL, "live"] as const;

export type RunLabel = (typeof RUN_LABELS)[number];

/** The label of numbers from these models: a stand-in's anywhere marks them all; a cassette is labelled by whose answers it holds. */
export function runLabel(provenances: readonly Provenance[]): RunLabel {
  if (provenances.some((provenance) => provenance.kind === "stand-in")) return STANDIN_LABEL;
  return provenances.some(inProcessSimulator) ? "simulated" : "live";
}
