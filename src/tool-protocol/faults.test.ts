import { describe, expect, it } from "vitest";
import { FaultConfigError, parseFaults } from "./faults.ts";

describe("parseFaults", () => {
  it("reads every field", () => {
    const text =
      '{"seed":1,"transientRate":0.3,"permanentRate":0,"malformedRate":1,"crashAfter":5,"latencyMs":{"min":1,"max":9}}';
    expect(parseFaults(text, "--faults")).toEqual({
      seed: 1,
      transientRate: 0.3,
      permanentRate: 0,
      malformedRate: 1,
      crashAfter: 5,
      latencyMs: { min: 1, max: 9 },
    });
  });

  it.each([
    ["{", /--faults: not valid JSON/],
    ["[]", /expected a JSON object/],
    ['{"transientrate":0.1}', /unknown field "transientrate"/],
    ['{"transientRate":1.5}', /transientRate must be a number from 0 to 1/],
    ['{"seed":-1}', /seed must be a whole number/],
    ['{"crashAfter":2.5}', /crashAfter must be a whole number/],
    ['{"latencyMs":{"min":1}}', /latencyMs must be milliseconds/],
  ])("refuses %s, naming where it came from", (text, message) => {
    expect(() => parseFaults(text, "--faults")).toThrow(FaultConfigError);
    expect(() => parseFaults(text, "--faults")).toThrow(message);
  });
});
