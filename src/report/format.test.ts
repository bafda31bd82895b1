import { describe, expect, it } from "vitest";
import { rate } from "../bench/scoring/rate.ts";
import { pointsIntervalText, pointsText, pValueText, rateText } from "./format.ts";

describe("format", () => {
  it("writes rates with an interval or their counts, and – when nothing was measured", () => {
    expect(rateText(rate(3, 4))).toBe("75.0%");
    expect(rateText(rate(3, 4), "counts")).toBe("75.0% (3/4)");
    expect(rateText(rate(3, 4), "interval")).toMatch(/^75\.0% \[\d+\.\d–\d+\.\d\]$/);
    expect(rateText(rate(0, 0), "interval")).toBe("–");
  });

  it("signs differences in points with a true minus, and never −0.0", () => {
    expect(pointsText(0.123)).toBe("+12.3 pp");
    expect(pointsText(-0.05)).toBe("−5.0 pp");
    expect(pointsText(-0.0001)).toBe("0.0 pp");
    expect(pointsIntervalText(-0.1, 0.02)).toBe("[−10.0, +2.0]");
  });

  it("rounds p-values to three places, tiny ones as <0.001", () => {
    expect(pValueText(0.04567)).toBe("0.046");
    expect(pValueText(0.0002)).toBe("<0.001");
    expect(pValueText(null)).toBe("–");
  });
});
