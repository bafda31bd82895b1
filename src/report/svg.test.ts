import { describe, expect, it } from "vitest";
import { escapeXml, lineChart, niceTicks, scatterChart, stackedBarChart } from "./svg.ts";

const marks = (svg: string) => svg.match(/class="mark"/g)?.length ?? 0;

describe("charts", () => {
  it("draws one mark per point, with its figures in a tooltip", () => {
    const svg = lineChart({
      id: "c",
      title: "t",
      xLabel: "x",
      yLabel: "y",
      categories: ["3", "8", "all"],
      series: [
        {
          name: "sim:a",
          points: [
            { category: "3", value: 0.9, lo: 0.8, hi: 0.95, detail: "filter 3: 90%" },
            { category: "all", value: 0.5, lo: null, hi: null, detail: "all: 50%" },
          ],
        },
      ],
    });
    expect(marks(svg)).toBe(2);
    expect(svg).toContain("<title>filter 3: 90%</title>");
    // 90% sits 10% below the top of the plot (top 24, height 340 − 24 − 48 = 268)
    expect(svg).toContain('cy="50.8"');
    expect(svg.match(/class="whisker"/g)).toHaveLength(1);
  });

  it("scales a scatter's x axis to round ticks past the largest value", () => {
    expect(niceTicks(87)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(1234)).toEqual([0, 250, 500, 750, 1000, 1250]);
    const svg = scatterChart({
      id: "s",
      title: "t",
      xLabel: "x",
      yLabel: "y",
      series: [{ name: "m", points: [{ x: 50, y: 0.5, label: "onsetlab", detail: "d" }] }],
    });
    expect(marks(svg)).toBe(1);
    expect(svg).toContain(">onsetlab</text>");
  });

  it("stacks bar segments in proportion to the row's total, skipping zeros", () => {
    const svg = stackedBarChart({
      id: "f",
      title: "t",
      xLabel: "share",
      names: ["wrong_tool", "wrong_value"],
      bars: [
        {
          label: "m · c",
          total: 10,
          segments: [
            { name: "wrong_tool", value: 2 },
            { name: "wrong_value", value: 0 },
          ],
        },
      ],
    });
    expect(marks(svg)).toBe(1);
    // 2 of 10 of a 400 px plot, its count written on it, the bar's failed share at its end
    expect(svg).toContain('width="80.0"');
    expect(svg).toMatch(/class="segment-label"[^>]*>2<\/text>/);
    expect(svg).toMatch(/class="bar-value"[^>]*>20%<\/text>/);
  });

  it("labels a crowded scatter's points only where a label has room, and says how many are left out", () => {
    const crowded = Array.from({ length: 20 }, (_, index) => ({
      x: 10 + (index % 2),
      y: 0.5,
      label: `config-${index}`,
      detail: `config-${index}: 50%`,
    }));
    const apart = { x: 90, y: 0.9, label: "alone", detail: "alone: 90%" };
    const svg = scatterChart({
      id: "s",
      title: "t",
      xLabel: "x",
      yLabel: "y",
      series: [{ name: "m", points: [...crowded, apart] }],
    });
    expect(marks(svg)).toBe(21);
    const labels = svg.match(/class="point-label"/g)?.length ?? 0;
    expect(labels).toBeGreaterThan(1);
    expect(labels).toBeLessThan(6);
    expect(svg).toContain(">alone</text>");
    expect(svg).toContain(`${21 - labels} of 21 points unlabelled`);
    // every point keeps its name in its tooltip
    expect(svg.match(/<title>config-\d+: 50%<\/title>/g)).toHaveLength(20);
  });

  it("escapes text", () => {
    expect(escapeXml(`a<b>&"c'`)).toBe("a&lt;b&gt;&amp;&quot;c&#39;");
  });
});
