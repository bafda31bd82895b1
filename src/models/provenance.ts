/**
 * Whose answers a model's numbers are, decided in one place: a live server's, the simulator's, the
 * stand-in server's (the simulator behind a real API, reached through a real client), or a cassette's
 * (replayed). Every "is this simulated?" question asks this module, not the entry's provider name.
 */

import type { ProviderEntry } from "./entry.ts";
import { definitionOf } from "./provider-registry.ts";
import type { SimProviderEntry } from "./providers/sim.ts";

export const PROVENANCES = ["live", "simulated", "stand-in", "replayed"] as const;

export type Provenance = (typeof PROVENANCES)[number];

/** The entry names the simulator itself (no server, no weights: answers from the dataset's gold). */
export function isSimulator(entry: ProviderEntry): entry is SimProviderEntry {
  return definitionOf(entry).provenance === "simulated";
}

/**
 * A model's provenance in a run: a replay's answers are the cassette's whatever the entry names; the
 * simulator's are simulated; a server that said it is the stand-in gives simulated numbers too; else live.
 */
export function provenanceOf(entry: ProviderEntry, run: { replay?: string; standin?: boolean } = {}): Provenance {
  if (run.replay !== undefined) return "replayed";
  if (isSimulator(entry)) return "simulated";
  return run.standin ? "stand-in" : "live";
}

/** Simulated numbers, whether the simulator answered in process or behind the stand-in server. */
export function isSimulatedProvenance(provenance: Provenance): boolean {
  return provenance === "simulated" || provenance === "stand-in";
}
