import { describe, expect, it } from "vitest";
import type { ProviderEntry } from "./entry.ts";
import { isSimulatedProvenance, isSimulator, provenanceOf } from "./provenance.ts";
import type { SimProviderEntry } from "./providers/sim.ts";

const sim: SimProviderEntry = {
  provider: "sim",
  name: "sim:slm-3b",
  model: "sim:slm-3b",
  profile: "slm-3b",
  options: {},
  source: "t",
};
const ollama: ProviderEntry = { provider: "ollama", name: "qwen2.5:3b", model: "qwen2.5:3b", options: {}, source: "t" };

describe("provenance", () => {
  it("is decided by the replay first, then the simulator, then what the server said it is", () => {
    expect(provenanceOf(sim, { replay: "c.jsonl" })).toBe("replayed");
    expect(provenanceOf(ollama, { replay: "c.jsonl", standin: true })).toBe("replayed");
    expect(provenanceOf(sim)).toBe("simulated");
    expect(provenanceOf(ollama, { standin: true })).toBe("stand-in");
    expect(provenanceOf(ollama)).toBe("live");
  });

  it("calls the simulator's and the stand-in's numbers simulated, and only the sim entry the simulator", () => {
    expect([sim, ollama].map(isSimulator)).toEqual([true, false]);
    expect((["live", "simulated", "stand-in", "replayed"] as const).map(isSimulatedProvenance)).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });
});
