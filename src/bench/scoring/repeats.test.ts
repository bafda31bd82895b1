import { describe, expect, it } from "vitest";
import { repeatRates } from "./repeats.ts";

const tries = (outcomes: Record<string, boolean[]>) =>
  Object.entries(outcomes).flatMap(([id, list]) =>
    list.map((taskSuccess) => ({ item: { id }, score: { taskSuccess } })),
  );

describe("repeatRates", () => {
  it("counts pass^k (every try succeeded) and pass@k (at least one) over items, with intervals", () => {
    const rates = repeatRates(
      tries({ a: [true, true, true], b: [true, false, true], c: [false, false, false], d: [true, true, true] }),
    );
    expect(rates?.k).toBe(3);
    expect(rates?.passHatK).toMatchObject({ k: 2, n: 4, value: 0.5 });
    expect(rates?.passAtK).toMatchObject({ k: 3, n: 4, value: 0.75 });
    expect(rates?.passHatK.lo).toBeLessThan(0.5);
    expect(rates?.passHatK.hi).toBeGreaterThan(0.5);
  });

  it("leaves out items with fewer tries than the others, and is null with one try per item", () => {
    expect(repeatRates(tries({ a: [true, true], b: [false] }))?.passAtK).toMatchObject({ k: 1, n: 1 });
    expect(repeatRates(tries({ a: [true], b: [false] }))).toBeNull();
  });
});
