import { describe, expect, it } from "vitest";
import { isSimulator, probedProvenance, provenanceOf } from "./decide-provenance.ts";
import type { ProviderEntry } from "./entry.ts";
import { isSimulatedProvenance, type Provenance, storedProvenance } from "./provenance.ts";
import type { SimProviderEntry } from "./providers/sim.ts";
import type { ModelFacts } from "./types.ts";

const sim: SimProviderEntry = {
  provider: "sim",
  name: "sim:slm-3b",
  model: "sim:slm-3b",
  profile: "slm-3b",
  options: {},
  source: "t",
};
const ollama: ProviderEntry = { provider: "ollama", name: "qwen2.5:3b", model: "qwen2.5:3b", options: {}, source: "t" };

/** What a server that is the stand-in says about itself when probed. */
const standinFacts = { standin: { profile: "sim:oracle", real: false } } as ModelFacts;

describe("provenance", () => {
  it("is decided by the replay first, then the simulator, then what the server said it is", () => {
    expect(provenanceOf(sim, { replay: "c.jsonl" })).toEqual({ kind: "replayed", from: "c.jsonl", simulated: true });
    expect(provenanceOf(ollama, { replay: "c.jsonl", facts: standinFacts })).toEqual({
      kind: "replayed",
      from: "c.jsonl",
      simulated: false,
    });
    expect(provenanceOf(sim)).toEqual({ kind: "simulated" });
    expect(provenanceOf(ollama, { facts: standinFacts })).toEqual({ kind: "stand-in", profile: "sim:oracle" });
    expect(probedProvenance({ kind: "simulated" }, standinFacts)).toEqual({ kind: "simulated" });
    expect(provenanceOf(ollama)).toEqual({ kind: "live" });
  });

  it("calls the simulator's and the stand-in's numbers simulated, and only the sim entry the simulator", () => {
    expect([sim, ollama].map(isSimulator)).toEqual([true, false]);
    const kinds: Provenance[] = [
      { kind: "live" },
      { kind: "simulated" },
      { kind: "stand-in", profile: "sim:oracle" },
      { kind: "replayed", from: "c.jsonl", simulated: false },
      { kind: "replayed", from: "c.jsonl", simulated: true },
    ];
    expect(kinds.map(isSimulatedProvenance)).toEqual([false, true, true, false, true]);
  });

  it("reads a run.json model made before the value was stored from its earlier fields", () => {
    expect(storedProvenance({ simulated: true } as object)).toEqual({ kind: "simulated" });
    expect(storedProvenance({ simulated: false, standin: "sim:slm-3b" } as object)).toEqual({
      kind: "stand-in",
      profile: "sim:slm-3b",
    });
    expect(storedProvenance({ simulated: true, replayedFrom: "c.jsonl" } as object)).toEqual({
      kind: "replayed",
      from: "c.jsonl",
      simulated: true,
    });
    expect(storedProvenance({ simulated: false } as object)).toEqual({ kind: "live" });
    expect(storedProvenance({ provenance: { kind: "live" } })).toEqual({ kind: "live" });
  });
});
