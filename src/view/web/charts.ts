/**
 * The run page's charts (Chart.js), chosen for the run's kind: task success with its 95% interval and
 * the failure taxonomy for every run; latency only for live models (a simulated run's times are the
 * simulator's, not a model's), task success by category in its place for a simulated one.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  Legend,
  LinearScale,
  Tooltip,
} from "chart.js";
import type { SummaryRow } from "../../bench/scoring/index.ts";
import { percentText, rateText } from "../../report/format.ts";
import type { RunSet } from "../../report/run-set.ts";
import { failureRows, occurringKinds } from "../../report/tables/failures.ts";
import { summaryRows } from "../../report/tables/leaderboard.ts";
import { el } from "./dom.ts";

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

const COLORS = ["#4269d0", "#efb118", "#ff725c", "#6cc5b0", "#3ca951", "#ff8ab7", "#a463f2", "#97bbf5", "#9c6b4e"];

export interface RunChart {
  id: string;
  title: string;
  config: ChartConfiguration;
}

const rowLabel = (row: { model: string; config: string }, models: number) =>
  models > 1 ? `${row.model} · ${row.config}` : row.config;

export function runCharts(set: RunSet, live: boolean): RunChart[] {
  const rows = summaryRows(set);
  const charts = [successChart(set, rows)];
  charts.push(live ? latencyChart(set, rows) : categoryChart(set));
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
        indexAxis: "y",
        datasets: { bar: { grouped: false } },
        scales: { x: { min: 0, max: 1, ticks: { callback: (value) => percentText(Number(value)) } } },
        plugins: {
          tooltip: { callbacks: { label: (item) => rateText(rows[item.dataIndex]!.taskSuccess, "interval") } },
        },
      },
    },
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
      options: { animation: false, indexAxis: "y" },
    },
  };
}

function categoryChart(set: RunSet): RunChart {
  const rows = set.runs.flatMap((run) => run.summary.byCategory);
  const categories = [...new Set(rows.map((row) => row.group?.value ?? ""))];
  const series = [...new Set(rows.map((row) => rowLabel(row, set.models.length)))];
  return {
    id: "chart-categories",
    title: "Task success by category",
    config: {
      type: "bar",
      data: {
        labels: categories,
        datasets: series.map((name, index) => ({
          label: name,
          data: categories.map(
            (category) =>
              rows.find((row) => row.group?.value === category && rowLabel(row, set.models.length) === name)
                ?.taskSuccess.value ?? null,
          ),
          backgroundColor: COLORS[index % COLORS.length],
        })),
      },
      options: {
        animation: false,
        scales: { y: { min: 0, max: 1, ticks: { callback: (value) => percentText(Number(value)) } } },
      },
    },
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
      options: { animation: false, indexAxis: "y", scales: { x: { stacked: true }, y: { stacked: true } } },
    },
  };
}

/** A figure holding the chart's canvas; the chart is drawn once the figure is in the page. */
export function chartFigure(chart: RunChart, signal: AbortSignal): HTMLElement {
  const canvas = el("canvas", { id: chart.id, role: "img", "aria-label": chart.title });
  const figure = el(
    "figure",
    { class: "chart" },
    el("figcaption", {}, chart.title),
    el("div", { class: "chart-box" }, canvas),
  );
  requestAnimationFrame(() => {
    if (signal.aborted) return;
    const drawn = new Chart(canvas, chart.config);
    signal.addEventListener("abort", () => drawn.destroy());
  });
  return figure;
}
