/**
 * Charts as inline SVG strings: no script, no network, the same bytes for the same data. Every data
 * mark (a point or a bar segment) has class "mark" and a <title> tooltip with its exact figures.
 */

/** Tableau 20: distinct enough for the 17 failure kinds; series use the first 10. */
export const PALETTE = [
  "#4e79a7",
  "#f28e2b",
  "#e15759",
  "#76b7b2",
  "#59a14f",
  "#edc948",
  "#b07aa1",
  "#ff9da7",
  "#9c755f",
  "#bab0ac",
  "#1f77b4",
  "#aec7e8",
  "#ff7f0e",
  "#ffbb78",
  "#2ca02c",
  "#98df8a",
  "#d62728",
  "#ff9896",
  "#9467bd",
  "#c5b0d5",
];

export function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

const fixed = (value: number) => value.toFixed(1);
const percentLabel = (value: number) => `${Math.round(value * 100)}%`;

interface Frame {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

function open(frame: Frame, title: string, id: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="${escapeXml(id)}" role="img" ` +
    `viewBox="0 0 ${frame.width} ${frame.height}" width="${frame.width}" height="${frame.height}">` +
    `<title>${escapeXml(title)}</title>`
  );
}

/** Horizontal gridlines and labels of a 0–100% y axis. */
function percentAxis(frame: Frame, y: (value: number) => number, label: string): string {
  const parts: string[] = [];
  for (let tick = 0; tick <= 1.0001; tick += 0.2) {
    parts.push(
      `<line class="grid" x1="${frame.left}" x2="${frame.width - frame.right}" y1="${fixed(y(tick))}" y2="${fixed(y(tick))}"/>`,
      `<text class="tick" x="${frame.left - 6}" y="${fixed(y(tick) + 4)}" text-anchor="end">${percentLabel(tick)}</text>`,
    );
  }
  const middle = (frame.top + frame.height - frame.bottom) / 2;
  parts.push(
    `<text class="axis-label" x="14" y="${fixed(middle)}" transform="rotate(-90 14 ${fixed(middle)})" text-anchor="middle">${escapeXml(label)}</text>`,
  );
  return parts.join("");
}

function legend(frame: Frame, names: readonly string[], colours: readonly string[]): string {
  const x = frame.width - frame.right + 14;
  return names
    .map(
      (name, index) =>
        `<rect class="swatch" x="${x}" y="${frame.top + index * 18}" width="10" height="10" fill="${colours[index]}"/>` +
        `<text class="legend" x="${x + 16}" y="${frame.top + index * 18 + 9}">${escapeXml(name)}</text>`,
    )
    .join("");
}

export interface LinePoint {
  category: string;
  value: number;
  lo: number | null;
  hi: number | null;
  /** The tooltip. */
  detail: string;
}

export interface LineSeries {
  name: string;
  points: LinePoint[];
}

/** Proportions (0–1) over ordered categories, one line per series, with interval whiskers. */
export function lineChart(options: {
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  categories: readonly string[];
  series: readonly LineSeries[];
}): string {
  const frame: Frame = { width: 680, height: 340, left: 60, right: 170, top: 24, bottom: 48 };
  const plotWidth = frame.width - frame.left - frame.right;
  const step = plotWidth / Math.max(1, options.categories.length);
  const x = (category: string) => frame.left + step * (options.categories.indexOf(category) + 0.5);
  const y = (value: number) => frame.top + (1 - value) * (frame.height - frame.top - frame.bottom);
  const parts = [open(frame, options.title, options.id), percentAxis(frame, y, options.yLabel)];
  options.categories.forEach((category) => {
    parts.push(
      `<text class="tick" x="${fixed(x(category))}" y="${frame.height - frame.bottom + 18}" text-anchor="middle">${escapeXml(category)}</text>`,
    );
  });
  parts.push(
    `<text class="axis-label" x="${fixed(frame.left + plotWidth / 2)}" y="${frame.height - 8}" text-anchor="middle">${escapeXml(options.xLabel)}</text>`,
  );
  options.series.forEach((series, index) => {
    const colour = PALETTE[index % 10]!;
    const path = series.points.map((point) => `${fixed(x(point.category))},${fixed(y(point.value))}`).join(" ");
    parts.push(`<polyline class="line" fill="none" stroke="${colour}" stroke-width="2" points="${path}"/>`);
    for (const point of series.points) {
      const cx = fixed(x(point.category));
      if (point.lo !== null && point.hi !== null) {
        parts.push(
          `<line class="whisker" x1="${cx}" x2="${cx}" y1="${fixed(y(point.lo))}" y2="${fixed(y(point.hi))}" stroke="${colour}"/>`,
        );
      }
      parts.push(
        `<circle class="mark" cx="${cx}" cy="${fixed(y(point.value))}" r="4" fill="${colour}">` +
          `<title>${escapeXml(point.detail)}</title></circle>`,
      );
    }
  });
  parts.push(
    legend(
      frame,
      options.series.map((series) => series.name),
      options.series.map((_, index) => PALETTE[index % 10]!),
    ),
    "</svg>",
  );
  return parts.join("");
}

export interface ScatterPoint {
  x: number;
  y: number;
  label: string;
  detail: string;
}

export interface ScatterSeries {
  name: string;
  points: ScatterPoint[];
}

/** y a proportion (0–1), x a non-negative measure on a linear axis from 0; each point labelled. */
export function scatterChart(options: {
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  series: readonly ScatterSeries[];
}): string {
  const frame: Frame = { width: 900, height: 420, left: 60, right: 190, top: 24, bottom: 48 };
  const plotWidth = frame.width - frame.left - frame.right;
  const maxX = Math.max(...options.series.flatMap((series) => series.points.map((point) => point.x)), 1);
  const ticks = niceTicks(maxX);
  const top = ticks[ticks.length - 1]!;
  const x = (value: number) => frame.left + (value / top) * plotWidth;
  const y = (value: number) => frame.top + (1 - value) * (frame.height - frame.top - frame.bottom);
  const parts = [open(frame, options.title, options.id), percentAxis(frame, y, options.yLabel)];
  for (const tick of ticks) {
    parts.push(
      `<text class="tick" x="${fixed(x(tick))}" y="${frame.height - frame.bottom + 18}" text-anchor="middle">${tick}</text>`,
    );
  }
  parts.push(
    `<text class="axis-label" x="${fixed(frame.left + plotWidth / 2)}" y="${frame.height - 8}" text-anchor="middle">${escapeXml(options.xLabel)}</text>`,
  );
  const placed: Box[] = [];
  const dots = options.series.flatMap((series) =>
    series.points.map((point) => ({ cx: x(point.x), cy: y(point.y), point })),
  );
  // every dot is an obstacle for every label, placed or not
  const obstacles: Box[] = dots.map(({ cx, cy }) => ({ x0: cx - 5, x1: cx + 5, y0: cy - 5, y1: cy + 5 }));
  const area = { x0: frame.left, x1: frame.width - frame.right + 10, y0: 0, y1: frame.height - frame.bottom };
  let unlabelled = 0;
  options.series.forEach((series, index) => {
    const colour = PALETTE[index % 10]!;
    for (const point of series.points) {
      const cx = x(point.x);
      const cy = y(point.y);
      parts.push(
        `<circle class="mark" cx="${fixed(cx)}" cy="${fixed(cy)}" r="5" fill="${colour}" fill-opacity="0.8">` +
          `<title>${escapeXml(point.detail)}</title></circle>`,
      );
      const spot = labelSpot(cx, cy, point.label, area, [...placed, ...obstacles]);
      if (!spot) {
        unlabelled += 1;
        continue;
      }
      placed.push(spot.box);
      parts.push(
        `<text class="point-label" x="${fixed(spot.x)}" y="${fixed(spot.y)}" text-anchor="${spot.anchor}">${escapeXml(point.label)}</text>`,
      );
    }
  });
  parts.push(
    legend(
      frame,
      options.series.map((series) => series.name),
      options.series.map((_, index) => PALETTE[index % 10]!),
    ),
  );
  if (unlabelled > 0) {
    const lx = frame.width - frame.right + 14;
    const ly = frame.top + options.series.length * 18 + 16;
    parts.push(
      `<text class="note" x="${lx}" y="${ly}"><tspan x="${lx}">${unlabelled} of ${dots.length} points unlabelled</tspan>` +
        `<tspan x="${lx}" dy="14">where labels would overlap:</tspan><tspan x="${lx}" dy="14">a point's tooltip names it</tspan></text>`,
    );
  }
  parts.push("</svg>");
  return parts.join("");
}

/** A label's box in chart coordinates. */
interface Box {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** Width of a label at the charts' 11 px sans-serif: a generous average glyph width, so labels never touch. */
const labelWidth = (text: string) => text.length * 6.2;

const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/**
 * Where a point's label goes: right of the dot, else left, above or below, the first place inside the
 * plot that overlaps no label already placed and no dot. Undefined when every place is taken.
 */
function labelSpot(
  cx: number,
  cy: number,
  text: string,
  area: Box,
  taken: readonly Box[],
): { x: number; y: number; anchor: "start" | "end" | "middle"; box: Box } | undefined {
  const width = labelWidth(text);
  const candidates = [
    { x: cx + 8, y: cy + 4, anchor: "start" as const, box: { x0: cx + 7, x1: cx + 8 + width, y0: cy - 6, y1: cy + 6 } },
    { x: cx - 8, y: cy + 4, anchor: "end" as const, box: { x0: cx - 8 - width, x1: cx - 7, y0: cy - 6, y1: cy + 6 } },
    {
      x: cx,
      y: cy - 9,
      anchor: "middle" as const,
      box: { x0: cx - width / 2, x1: cx + width / 2, y0: cy - 19, y1: cy - 6 },
    },
    {
      x: cx,
      y: cy + 17,
      anchor: "middle" as const,
      box: { x0: cx - width / 2, x1: cx + width / 2, y0: cy + 6, y1: cy + 19 },
    },
  ];
  return candidates.find(
    ({ box }) =>
      box.x0 >= area.x0 &&
      box.x1 <= area.x1 &&
      box.y0 >= area.y0 &&
      box.y1 <= area.y1 &&
      !taken.some((other) => overlaps(box, other)),
  );
}

/** 0 and 4–6 round steps covering max (1, 2, 2.5 or 5 × 10^k). */
export function niceTicks(max: number): number[] {
  const rough = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= rough)!;
  const ticks: number[] = [];
  for (let tick = 0; tick < max + step; tick += step) ticks.push(Number(tick.toPrecision(12)));
  return ticks;
}

export interface StackedBar {
  label: string;
  total: number;
  segments: { name: string; value: number }[];
}

/** One horizontal bar per row; segment widths are value / total of the full width. */
export function stackedBarChart(options: {
  id: string;
  title: string;
  xLabel: string;
  names: readonly string[];
  bars: readonly StackedBar[];
}): string {
  const rowHeight = 18;
  const legendHeight = options.names.length * 18;
  const frame: Frame = {
    width: 820,
    height: Math.max(options.bars.length * rowHeight, legendHeight) + 24 + 48,
    left: 220,
    right: 200,
    top: 24,
    bottom: 48,
  };
  const plotWidth = frame.width - frame.left - frame.right;
  const parts = [open(frame, options.title, options.id)];
  for (let tick = 0; tick <= 1.0001; tick += 0.2) {
    const tx = fixed(frame.left + tick * plotWidth);
    parts.push(
      `<line class="grid" x1="${tx}" x2="${tx}" y1="${frame.top}" y2="${frame.height - frame.bottom}"/>`,
      `<text class="tick" x="${tx}" y="${frame.height - frame.bottom + 18}" text-anchor="middle">${percentLabel(tick)}</text>`,
    );
  }
  parts.push(
    `<text class="axis-label" x="${fixed(frame.left + plotWidth / 2)}" y="${frame.height - 8}" text-anchor="middle">${escapeXml(options.xLabel)}</text>`,
  );
  options.bars.forEach((bar, row) => {
    const top = frame.top + row * rowHeight;
    parts.push(
      `<text class="bar-label" x="${frame.left - 6}" y="${top + 12}" text-anchor="end">${escapeXml(bar.label)}</text>`,
    );
    let offset = 0;
    for (const segment of bar.segments) {
      if (segment.value === 0 || bar.total === 0) continue;
      const width = (segment.value / bar.total) * plotWidth;
      const colour = PALETTE[options.names.indexOf(segment.name) % PALETTE.length]!;
      parts.push(
        `<rect class="mark" x="${fixed(frame.left + offset)}" y="${top + 2}" width="${fixed(width)}" height="${rowHeight - 4}" fill="${colour}">` +
          `<title>${escapeXml(`${bar.label} · ${segment.name}: ${segment.value} of ${bar.total}`)}</title></rect>`,
      );
      // a segment wide enough for its count says it; a narrow one keeps it in its tooltip
      if (width >= labelWidth(String(segment.value)) + 6) {
        parts.push(
          `<text class="segment-label" x="${fixed(frame.left + offset + width / 2)}" y="${top + 13}" text-anchor="middle">${segment.value}</text>`,
        );
      }
      offset += width;
    }
    const shown = bar.segments.reduce((sum, segment) => sum + segment.value, 0);
    if (bar.total > 0) {
      parts.push(
        `<text class="bar-value" x="${fixed(frame.left + offset + 4)}" y="${top + 13}">${percentLabel(shown / bar.total)}</text>`,
      );
    }
  });
  parts.push(
    legend(
      frame,
      options.names,
      options.names.map((_, index) => PALETTE[index % PALETTE.length]!),
    ),
    "</svg>",
  );
  return parts.join("");
}
