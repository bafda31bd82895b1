/**
 * Whose answers a model's numbers are, decided once when a run's models resolve and stored in run.json:
 * a live server's, the simulator's, the stand-in server's (the simulator behind a real API, reached
 * through a real client), or a cassette's (replayed). Every "is this simulated?" question and every label
 * reads this value, not the entry's provider name. It is decided by decide-provenance.ts; this module
 * imports nothing, so the viewer's browser code reads it too.
 */

export type Provenance =
  | { kind: "live" }
  | { kind: "simulated" }
  /** The server said it is the stand-in (mock-servers/ollama), serving this simulator profile. */
  | { kind: "stand-in"; profile: string }
  /** Answers from a cassette (`--replay`); `simulated`: the cassette holds the simulator's answers. */
  | { kind: "replayed"; from: string; simulated: boolean };

/** Simulated numbers: the simulator's, in process, behind the stand-in server, or replayed from its cassette. */
export function isSimulatedProvenance(provenance: Provenance): boolean {
  return (
    provenance.kind === "simulated" ||
    provenance.kind === "stand-in" ||
    (provenance.kind === "replayed" && provenance.simulated)
  );
}

/** The simulator answered in the harness's own process (not through a server, not from a cassette). */
export function inProcessSimulator(provenance: Provenance): boolean {
  return provenance.kind === "simulated" || (provenance.kind === "replayed" && provenance.simulated);
}

/** Deterministic answers (the simulator's or a cassette's) are the same on every run: the gate wants exact counts. */
export function isDeterministicProvenance(provenance: Provenance): boolean {
  return provenance.kind === "simulated" || provenance.kind === "replayed";
}

/** What run.json held before `provenance` was stored. */
interface EarlierRunModel {
  simulated?: boolean;
  standin?: string;
  replayedFrom?: string;
}

/**
 * The provenance of a run.json model. Runs made before the value was stored carry `simulated`,
 * `standin` and `replayedFrom` instead; they are read here, and only here.
 */
export function storedProvenance(model: { provenance?: Provenance }): Provenance {
  if (model.provenance) return model.provenance;
  const earlier = model as EarlierRunModel;
  if (earlier.replayedFrom !== undefined) {
    return { kind: "replayed", from: earlier.replayedFrom, simulated: earlier.simulated === true };
  }
  if (earlier.simulated) return { kind: "simulated" };
  return earlier.standin === undefined ? { kind: "live" } : { kind: "stand-in", profile: earlier.standin };
}

/** One model's provenance, as summary.json and the reports list them. */
export interface ModelProvenance {
  model: string;
  provenance: Provenance;
}
