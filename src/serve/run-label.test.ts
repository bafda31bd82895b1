import { describe, expect, it } from "vitest";
import { runLabel } from "./run-label.ts";

describe("runLabel", () => {
  it("never labels the stand-in's numbers live, whether or not the simulator also ran", () => {
    expect(runLabel({ simulated: false, standin: true })).toBe("simulated (stand-in)");
    expect(runLabel({ simulated: true, standin: true })).toBe("simulated (stand-in)");
    expect(runLabel({ simulated: true })).toBe("simulated");
    expect(runLabel({ simulated: false })).toBe("live");
  });
});
