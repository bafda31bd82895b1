/**
 * Whose answers a run's or a query's numbers are, as the API labels them: the simulator's, the
 * stand-in's (the simulator behind a real API), or a real model's. A stand-in's are never "live".
 */
export const RUN_LABELS = ["simulated", "simulated (stand-in)", "live"] as const;

export type RunLabel = (typeof RUN_LABELS)[number];

export function runLabel(source: { simulated?: boolean; standin?: boolean }): RunLabel {
  if (source.standin) return "simulated (stand-in)";
  return source.simulated ? "simulated" : "live";
}
