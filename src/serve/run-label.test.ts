import { describe, expect, it } from "vitest";
import { runLabel } from "./run-label.ts";

describe("runLabel", () => {
  it("never labels the stand-in's numbers live, whether or not the simulator also ran", () => {
    expect(runLabel([{ kind: "stand-in", profile: "sim:slm-3b" }])).toBe("simulated (stand-in)");
    expect(runLabel([{ kind: "simulated" }, { kind: "stand-in", profile: "sim:slm-3b" }])).toBe("simulated (stand-in)");
    expect(runLabel([{ kind: "simulated" }])).toBe("simulated");
    expect(runLabel([{ kind: "replayed", from: "c.jsonl", simulated: true }])).toBe("simulated");
    expect(runLabel([{ kind: "replayed", from: "c.jsonl", simulated: false }])).toBe("live");
    expect(runLabel([{ kind: "live" }])).toBe("live");
  });
});
