/**
 * The run page's charts (Chart.js), chosen for the run's kind: task success with its 95% interval and
 * the failure taxonomy for every run; latency only for live models (a simulated run's times are the
 * simulator's, not a model's). Every bar is named on its axis and says its figure on itself; task
 * success by category is a table of bars (run.ts), which reads better than a bar per category × row.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  Legend,
  LinearScale,
  type Plugin,
  Tooltip,
} from "chart.js";
import type { SummaryRow } from "../../bench/scoring/summarize.ts";
import { percentText, rateText } from "../../report/format.ts";
import type { RunSet } from "../../report/run-set.ts";
import { PALETTE } from "../../report/svg.ts";
import { failureRows, occurringKinds } from "../../report/tables/failures.ts";
import { summaryRows } from "../../report/tables/leaderboard.ts";
import { el } from "./dom.ts";

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

/** The report's colours: 20 of them, one per failure kind. */
const COLORS = PALETTE;

/** Pixels per bar of a horizontal chart, so every bar has room for its name (none skipped). */
const BAR_HEIGHT = 22;

export interface RunChart {
  id: string;
  title: string;
  config: ChartConfiguration;
  /** The drawing's height in px: horizontal charts grow with their bars. */
  height: number;
}

/**
 * Each bar's figure drawn on it: at the end of a plain bar (`text` of its value), inside a stacked
 * segment when the segment is wide enough (its count), nothing on an interval's range bar.
 */
const barFigures = (text: (value: number, dataset: number) => string | undefined): Plugin<"bar"> => ({
  id: "barFigures",
  afterDatasetsDraw(chart) {
    const { ctx } = chart;
    ctx.save();
    ctx.font = "11px system-ui, sans-serif";
    ctx.textBaseline = "middle";
    chart.data.datasets.forEach((dataset, index) => {
      const meta = chart.getDatasetMeta(index);
      if (meta.hidden) return;
      meta.data.forEach((bar, at) => {
        const value = dataset.data[at];
        const label = typeof value === "number" && value > 0 ? text(value, index) : undefined;
        if (label === undefined) return;
        const { x, y, base } = bar.getProps(["x", "y", "base"], true) as { x: number; y: number; base: number };
        const width = ctx.measureText(label).width;
        if (chart.options.scales?.x?.stacked) {
          if (x - base < width + 6) return;
          ctx.fillStyle = "#fff";
          ctx.textAlign = "center";
          ctx.fillText(label, (x + base) / 2, y);
        } else {
          // past every bar drawn at this row (an interval's range too), so no figure sits on a bar
          const end = Math.max(
            ...chart.data.datasets.map(
              (_, other) => chart.getDatasetMeta(other).data[at]?.getProps(["x"], true).x ?? x,
            ),
          );
          ctx.fillStyle = "#1d2330";
          ctx.textAlign = "left";
          ctx.fillText(label, end + 4, y);
        }
      });
    });
    ctx.restore();
  },
});

/** A horizontal chart's category axis: every name shown, none skipped for room. */
const EVERY_NAME = { ticks: { autoSkip: false } } as const;

const horizontalHeight = (bars: number, legendRows: number) => bars * BAR_HEIGHT + legendRows * 22 + 60;

const rowLabel = (row: { model: string; config: string }, models: number) =>
  models > 1 ? `${row.model} · ${row.config}` : row.config;

export function runCharts(set: RunSet, live: boolean): RunChart[] {
  const rows = summaryRows(set);
  const charts = [successChart(set, rows)];
  if (live) charts.push(latencyChart(set, rows));
  const failures = failureChart(set);
  if (failures) charts.push(failures);
  return charts;
}

function successChart(set: RunSet, rows: SummaryRow[]): RunChart {
  return {
    id: "chart-success",
    title: "Task success per configuration, with its 95% Wilson interval",
    config: {
      type: "bar",
      data: {
        labels: rows.map((row) => rowLabel(row, set.models.length)),
        datasets: [
          {
            label: "task success",
            data: rows.map((row) => row.taskSuccess.value ?? 0),
            backgroundColor: COLORS[0],
          },
          {
            label: "95% interval",
            data: rows.map((row) => [row.taskSuccess.lo ?? 0, row.taskSuccess.hi ?? 0] as [number, number]),
            backgroundColor: "rgba(0,0,0,0.15)",
            barPercentage: 0.3,
          },
        ],
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        indexAxis: "y",
        datasets: { bar: { grouped: false } },
        scales: { x: { min: 0, max: 1, ticks: { callback: (value) => percentText(Number(value)) } }, y: EVERY_NAME },
        plugins: {
          tooltip: { callbacks: { label: (item) => rateText(rows[item.dataIndex]!.taskSuccess, "interval") } },
        },
      },
      plugins: [barFigures((value, dataset) => (dataset === 0 ? percentText(value) : undefined))],
    },
    height: horizontalHeight(rows.length, 1),
  };
}

function latencyChart(set: RunSet, rows: SummaryRow[]): RunChart {
  return {
    id: "chart-latency",
    title: "Latency per item: p50 and p95 (ms)",
    config: {
      type: "bar",
      data: {
        labels: rows.map((row) => rowLabel(row, set.models.length)),
        datasets: [
          { label: "p50 ms", data: rows.map((row) => row.p50Ms?.value ?? null), backgroundColor: COLORS[0] },
          { label: "p95 ms", data: rows.map((row) => row.p95Ms?.value ?? null), backgroundColor: COLORS[1] },
        ],
      },
      options: { animation: false, maintainAspectRatio: false, indexAxis: "y", scales: { y: EVERY_NAME } },
      plugins: [barFigures((value) => `${Math.round(value)}`)],
    },
    height: horizontalHeight(rows.length * 2, 1),
  };
}

function failureChart(set: RunSet): RunChart | undefined {
  const rows = failureRows(set);
  const kinds = occurringKinds(rows, "primary");
  if (kinds.length === 0) return undefined;
  return {
    id: "chart-failures",
    title: "Failure taxonomy: failed items by their primary failure",
    config: {
      type: "bar",
      data: {
        labels: rows.map((row) => rowLabel(row, set.models.length)),
        datasets: kinds.map((kind, index) => ({
          label: kind,
          data: rows.map((row) => row.primary[kind]),
          backgroundColor: COLORS[index % COLORS.length],
        })),
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        indexAxis: "y",
        scales: { x: { stacked: true }, y: { stacked: true, ...EVERY_NAME } },
      },
      plugins: [barFigures((value) => String(value))],
    },
    // the legend wraps about four kinds to a line
    height: horizontalHeight(rows.length, Math.ceil(kinds.length / 4)),
  };
}

/** A figure holding the chart's canvas; the chart is drawn once the figure is in the page. */
export function chartFigure(chart: RunChart, signal: AbortSignal): HTMLElement {
  const canvas = el("canvas", { id: chart.id, role: "img", "aria-label": chart.title });
  const figure = el(
    "figure",
    { class: "chart" },
    el("figcaption", {}, chart.title),
    el("div", { class: "chart-box", style: `height: ${chart.height}px` }, canvas),
  );
  requestAnimationFrame(() => {
    if (signal.aborted) return;
    const drawn = new Chart(canvas, chart.config);
    // what the reader sees, for the browser tests: the bars, and the names drawn on their axis
    canvas.dataset.bars = String(drawn.data.labels?.length ?? 0);
    canvas.dataset.named = String(drawn.scales.y?.ticks.length ?? 0);
    signal.addEventListener("abort", () => drawn.destroy());
  });
  return figure;
}
