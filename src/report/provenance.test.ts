import { describe, expect, it } from "vitest";
import { isDeterministic, labelled, provenanceLabel } from "./provenance.ts";

describe("provenanceLabel", () => {
  it("says simulated, replayed from where, or nothing for live models", () => {
    expect(provenanceLabel([{ model: "sim:slm-3b", simulated: true }])).toBe("simulated");
    expect(provenanceLabel([{ model: "qwen2.5:3b", simulated: false, replayedFrom: "cassettes/qwen.json" }])).toBe(
      "replayed from cassettes/qwen.json",
    );
    expect(provenanceLabel([{ model: "qwen2.5:3b", simulated: false }])).toBe("");
  });

  it("names the models when only some are simulated or replayed", () => {
    expect(
      provenanceLabel([
        { model: "sim:slm-3b", simulated: true },
        { model: "qwen2.5:3b", simulated: false, replayedFrom: "q.json" },
        { model: "llama3.2:3b", simulated: false },
      ]),
    ).toBe("simulated: sim:slm-3b; replayed from q.json: qwen2.5:3b");
    expect(labelled("Leaderboard", "simulated")).toBe("Leaderboard (simulated)");
    expect(labelled("Leaderboard", "")).toBe("Leaderboard");
  });

  it("counts simulated and replayed models as deterministic, live ones not", () => {
    expect(isDeterministic({ model: "a", simulated: true })).toBe(true);
    expect(isDeterministic({ model: "b", simulated: false, replayedFrom: "x" })).toBe(true);
    expect(isDeterministic({ model: "c", simulated: false })).toBe(false);
  });
});
