/**
 * Where a table's numbers came from, said in its heading: "simulated" for the simulator, "simulated
 * (stand-in)" for the simulator behind the stand-in server, "replayed from FILE" for a cassette;
 * nothing for a live model.
 */
import type { ModelSource } from "./run-set.ts";

export const STANDIN_LABEL = "simulated (stand-in)";

export function provenanceLabel(sources: readonly ModelSource[]): string {
  const parts: string[] = [];
  const simulated = sources.filter((source) => source.simulated);
  if (simulated.length > 0) {
    parts.push(
      simulated.length === sources.length ? "simulated" : `simulated: ${simulated.map((s) => s.model).join(", ")}`,
    );
  }
  const standins = sources.filter((source) => source.standin);
  if (standins.length > 0) {
    parts.push(
      standins.length === sources.length
        ? STANDIN_LABEL
        : `${STANDIN_LABEL}: ${standins.map((s) => s.model).join(", ")}`,
    );
  }
  const cassettes = [...new Set(sources.flatMap((source) => (source.replayedFrom ? [source.replayedFrom] : [])))];
  for (const cassette of cassettes) {
    const replayed = sources.filter((source) => source.replayedFrom === cassette);
    parts.push(
      replayed.length === sources.length
        ? `replayed from ${cassette}`
        : `replayed from ${cassette}: ${replayed.map((s) => s.model).join(", ")}`,
    );
  }
  return parts.join("; ");
}

/** `Leaderboard (simulated)`; the title alone for live models. */
export function labelled(title: string, label: string): string {
  return label === "" ? title : `${title} (${label})`;
}

/** Deterministic models (simulated or replayed) give the same answers on every run: the gate wants exact counts. */
export function isDeterministic(source: ModelSource): boolean {
  return source.simulated || source.replayedFrom !== undefined;
}
