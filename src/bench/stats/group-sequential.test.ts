import { describe, expect, it } from "vitest";
import { seededRandom } from "../../random.ts";
import { groupSequentialBoundaries, obrienFlemingSpent } from "./group-sequential.ts";
import { normalCdf, normalQuantile } from "./normal.ts";

const equallySpaced = (looks: number) => Array.from({ length: looks }, (_, index) => (index + 1) / looks);

describe("the standard normal", () => {
  it("agrees with printed tables and inverts itself", () => {
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-3)).toBeCloseTo(0.0013499, 6);
    for (const p of [1e-9, 0.001, 0.2, 0.5, 0.9, 0.999999]) expect(normalCdf(normalQuantile(p))).toBeCloseTo(p, 8);
  });
});

describe("group-sequential boundaries (O'Brien–Fleming-type spending)", () => {
  it("match the published values for 5 equally spaced looks at two-sided α = 0.05", () => {
    // R ldbounds / gsDesign sfLDOF: 4.8769, 3.3569, 2.6803, 2.2898, 2.0310
    const boundaries = groupSequentialBoundaries(equallySpaced(5), 0.05);
    [4.8769, 3.3569, 2.6803, 2.2898, 2.031].forEach((published, index) => {
      expect(boundaries[index]).toBeCloseTo(published, 3);
    });
  });

  it("spend all of α by the end and reduce to the fixed-size test with one look", () => {
    expect(obrienFlemingSpent(1, 0.05)).toBeCloseTo(0.05, 10);
    expect(obrienFlemingSpent(0.1, 0.05)).toBeLessThan(1e-6);
    expect(groupSequentialBoundaries([1], 0.05)[0]).toBeCloseTo(1.96, 3);
  });

  it("keep the type I error of a fixed-size test when there is no difference", () => {
    // 200 paired items, 30% discordant, discordant pairs split evenly (H0), 10 looks
    const looks = 10;
    const items = 200;
    const boundaries = groupSequentialBoundaries(equallySpaced(looks), 0.05);
    const random = seededRandom(7);
    const trials = 4000;
    let rejected = 0;
    for (let trial = 0; trial < trials; trial++) {
      let onlyA = 0;
      let onlyB = 0;
      for (let item = 1; item <= items; item++) {
        if (random() < 0.3) {
          if (random() < 0.5) onlyA++;
          else onlyB++;
        }
        const look = Math.round((item * looks) / items);
        if (item % (items / looks) !== 0 || onlyA + onlyB === 0) continue;
        if (Math.abs((onlyB - onlyA) / Math.sqrt(onlyA + onlyB)) >= boundaries[look - 1]!) {
          rejected++;
          break;
        }
      }
    }
    // binomial sd at 4000 trials is 0.0034; the discrete statistic keeps it a little under α
    expect(rejected / trials).toBeGreaterThan(0.03);
    expect(rejected / trials).toBeLessThan(0.06);
  });

  it("refuse fractions that do not increase", () => {
    expect(() => groupSequentialBoundaries([0.5, 0.5], 0.05)).toThrow(/increase/);
    expect(() => groupSequentialBoundaries([0.5, 1], 1.2)).toThrow(/alpha/);
  });
});
