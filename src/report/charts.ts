/**
 * The html page's three charts, from the same run files as the tables: task success against tool
 * filter N, task success against p50 latency per configuration, and the failure taxonomy.
 */
import { percentText, rateText } from "./format.ts";
import { byRunOrder, type RunSet } from "./run-set.ts";
import { type LineSeries, lineChart, type ScatterSeries, scatterChart, stackedBarChart } from "./svg.ts";
import { ablationMembers, filterRank } from "./tables/ablations.ts";
import { failureRows, occurringKinds } from "./tables/failures.ts";
import { summaryRows } from "./tables/leaderboard.ts";

export interface Chart {
  id: string;
  title: string;
  /** Inline SVG, or undefined when the runs hold nothing to draw (then `empty` says why). */
  svg?: string;
  empty?: string;
}

export function buildCharts(set: RunSet, reference: string, heading: (title: string) => string): Chart[] {
  return [filterChart(set, reference, heading), latencyChart(set, heading), failureChart(set, heading)];
}

function filterChart(set: RunSet, reference: string, heading: (title: string) => string): Chart {
  const id = "chart-filter";
  const title = heading("Task success vs tool filter N");
  const members = ablationMembers(set, reference).get("filter") ?? [];
  if (members.length === 0) {
    return { id, title, empty: `No configuration in these runs changes only the tool filter of \`${reference}\`.` };
  }
  const categories = [...new Set(members.map((member) => member.resolved.filter))]
    .sort((a, b) => filterRank(a) - filterRank(b))
    .map(String);
  const series: LineSeries[] = set.models.flatMap((model) => {
    const ofModel = members.filter((member) => member.row.model === model);
    if (ofModel.length === 0) return [];
    return [
      {
        name: model,
        points: ofModel.map((member) => ({
          category: String(member.resolved.filter),
          value: member.row.taskSuccess.value ?? 0,
          lo: member.row.taskSuccess.lo,
          hi: member.row.taskSuccess.hi,
          detail: `${model} · ${member.row.config} (filter ${member.resolved.filter}): ${rateText(member.row.taskSuccess, "interval")}`,
        })),
      },
    ];
  });
  return {
    id,
    title,
    svg: lineChart({ id, title, xLabel: "tools shown (filter N)", yLabel: "task success", categories, series }),
  };
}

function latencyChart(set: RunSet, heading: (title: string) => string): Chart {
  const id = "chart-latency";
  const title = heading("Task success vs p50 latency per configuration");
  const rows = byRunOrder(set, summaryRows(set)).filter((row) => row.p50Ms !== null && row.taskSuccess.value !== null);
  if (rows.length === 0) return { id, title, empty: "No configuration has both a task success and a latency." };
  const series: ScatterSeries[] = set.models.flatMap((model) => {
    const ofModel = rows.filter((row) => row.model === model);
    if (ofModel.length === 0) return [];
    return [
      {
        name: model,
        points: ofModel.map((row) => ({
          x: row.p50Ms!.value,
          y: row.taskSuccess.value!,
          label: row.config,
          detail: `${model} · ${row.config}: ${percentText(row.taskSuccess.value)} at p50 ${row.p50Ms!.value.toFixed(0)} ms`,
        })),
      },
    ];
  });
  return {
    id,
    title,
    svg: scatterChart({ id, title, xLabel: "p50 latency per item (ms)", yLabel: "task success", series }),
  };
}

function failureChart(set: RunSet, heading: (title: string) => string): Chart {
  const id = "chart-failures";
  const title = heading("Failure taxonomy (share of items by primary failure)");
  const rows = failureRows(set);
  const kinds = occurringKinds(rows, "primary");
  if (kinds.length === 0) return { id, title, empty: "No item failed." };
  return {
    id,
    title,
    svg: stackedBarChart({
      id,
      title,
      xLabel: "share of items",
      names: kinds,
      bars: rows.map((row) => ({
        label: `${row.model} · ${row.config}`,
        total: row.n,
        segments: kinds.map((kind) => ({ name: kind, value: row.primary[kind] })),
      })),
    }),
  };
}
