/**
 * Where a model's Provenance (provenance.ts) is decided, from its provider's definition and the run:
 * the one place that asks whether an entry is the simulator.
 */

import type { ProviderEntry } from "./entry.ts";
import type { Provenance } from "./provenance.ts";
import { definitionOf } from "./provider-registry.ts";
import type { SimProviderEntry } from "./providers/sim.ts";
import type { ModelFacts } from "./types.ts";

/** The entry names the simulator itself (no server, no weights: answers from the dataset's gold). */
export function isSimulator(entry: ProviderEntry): entry is SimProviderEntry {
  return definitionOf(entry).provenance === "simulated";
}

/**
 * A model's provenance in a run: a replay's answers are the cassette's whatever the entry names; the
 * simulator's are simulated; a server that said it is the stand-in (its probe's facts) gives simulated
 * numbers too; else live.
 */
export function provenanceOf(entry: ProviderEntry, run: { replay?: string; facts?: ModelFacts } = {}): Provenance {
  if (run.replay !== undefined) return { kind: "replayed", from: run.replay, simulated: isSimulator(entry) };
  if (isSimulator(entry)) return { kind: "simulated" };
  return run.facts ? probedProvenance({ kind: "live" }, run.facts) : { kind: "live" };
}

/** After the probe: a live model whose server said it is the stand-in gives the stand-in's (simulated) answers. */
export function probedProvenance(provenance: Provenance, facts: ModelFacts): Provenance {
  const profile = facts.standin?.profile;
  return provenance.kind === "live" && profile !== undefined ? { kind: "stand-in", profile } : provenance;
}
