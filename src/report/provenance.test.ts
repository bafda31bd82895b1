import { describe, expect, it } from "vitest";
import { isDeterministic, labelled, modelLabel, provenanceLabel } from "./provenance.ts";

describe("provenanceLabel", () => {
  it("says simulated, stand-in, replayed from where, or nothing for live models", () => {
    expect(provenanceLabel([{ model: "sim:slm-3b", provenance: { kind: "simulated" } }])).toBe("simulated");
    expect(
      provenanceLabel([
        { model: "qwen2.5:3b", provenance: { kind: "replayed", from: "cassettes/qwen.json", simulated: false } },
      ]),
    ).toBe("replayed from cassettes/qwen.json");
    expect(provenanceLabel([{ model: "qwen2.5:3b", provenance: { kind: "stand-in", profile: "sim:slm-3b" } }])).toBe(
      "simulated (stand-in)",
    );
    expect(provenanceLabel([{ model: "qwen2.5:3b", provenance: { kind: "live" } }])).toBe("");
    // a replayed simulator cassette holds the simulator's answers: still simulated
    expect(modelLabel("sim:slm-3b", { kind: "replayed", from: "c.jsonl", simulated: true })).toBe(
      "sim:slm-3b (simulated; replayed from c.jsonl)",
    );
    expect(modelLabel("qwen2.5:3b", { kind: "live" })).toBe("qwen2.5:3b");
  });

  it("names the models when only some are simulated or replayed", () => {
    expect(
      provenanceLabel([
        { model: "sim:slm-3b", provenance: { kind: "simulated" } },
        { model: "qwen2.5:3b", provenance: { kind: "replayed", from: "q.json", simulated: false } },
        { model: "llama3.2:3b", provenance: { kind: "live" } },
      ]),
    ).toBe("simulated: sim:slm-3b; replayed from q.json: qwen2.5:3b");
    expect(labelled("Leaderboard", "simulated")).toBe("Leaderboard (simulated)");
    expect(labelled("Leaderboard", "")).toBe("Leaderboard");
  });

  it("counts simulated and replayed models as deterministic, live and stand-in ones not", () => {
    expect(isDeterministic({ model: "a", provenance: { kind: "simulated" } })).toBe(true);
    expect(isDeterministic({ model: "b", provenance: { kind: "replayed", from: "x", simulated: false } })).toBe(true);
    expect(isDeterministic({ model: "c", provenance: { kind: "live" } })).toBe(false);
    expect(isDeterministic({ model: "d", provenance: { kind: "stand-in", profile: "sim:oracle" } })).toBe(false);
  });
});
