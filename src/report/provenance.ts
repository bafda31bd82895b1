/**
 * Where a table's numbers came from, said in its heading: "simulated" for the simulator, "simulated
 * (stand-in)" for the simulator behind the stand-in server, "replayed from FILE" for a cassette;
 * nothing for a live model. Every label reads the models' Provenance (src/models/provenance.ts).
 */
import { inProcessSimulator, isDeterministicProvenance, type Provenance } from "../models/provenance.ts";
import type { ModelSource } from "./run-set.ts";

export const STANDIN_LABEL = "simulated (stand-in)";

export function provenanceLabel(sources: readonly ModelSource[]): string {
  const parts: string[] = [];
  const part = (label: string, matching: readonly ModelSource[]) => {
    if (matching.length === 0) return;
    parts.push(matching.length === sources.length ? label : `${label}: ${matching.map((s) => s.model).join(", ")}`);
  };
  part(
    "simulated",
    sources.filter((source) => inProcessSimulator(source.provenance)),
  );
  part(
    STANDIN_LABEL,
    sources.filter((source) => source.provenance.kind === "stand-in"),
  );
  for (const cassette of cassettesOf(sources)) {
    part(
      `replayed from ${cassette}`,
      sources.filter((source) => replayedFrom(source.provenance) === cassette),
    );
  }
  return parts.join("; ");
}

/** One model's label beside its name (`qwen2.5:3b (replayed from c.jsonl)`), or its name alone when live. */
export function modelLabel(model: string, provenance: Provenance): string {
  const label = provenanceLabel([{ model, provenance }]);
  return label === "" ? model : `${model} (${label})`;
}

/** The cassettes the sources were replayed from, each once. */
export function cassettesOf(sources: readonly ModelSource[]): string[] {
  return [...new Set(sources.flatMap((source) => replayedFrom(source.provenance) ?? []))];
}

function replayedFrom(provenance: Provenance): string | undefined {
  return provenance.kind === "replayed" ? provenance.from : undefined;
}

/** `Leaderboard (simulated)`; the title alone for live models. */
export function labelled(title: string, label: string): string {
  return label === "" ? title : `${title} (${label})`;
}

/** Deterministic models (simulated or replayed) give the same answers on every run: the gate wants exact counts. */
export function isDeterministic(source: ModelSource): boolean {
  return isDeterministicProvenance(source.provenance);
}
