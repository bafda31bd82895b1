/**
 * Builds a report from runs: its sections and tables, its charts, and the summary.json it carries.
 * A pure function of the run files (no clock, no environment), so the same runs always give the same
 * report, byte for byte.
 */

import type { RunSummary } from "../bench/run/compare-configs.ts";
import { SUMMARY_FORMAT } from "../bench/run/run-format.ts";
import { sequentialText } from "../bench/run/until-significant.ts";
import { inProcessSimulator } from "../models/provenance.ts";
import { DEFAULT_REFERENCE } from "./ablation.ts";
import { buildCharts, type Chart } from "./charts.ts";
import { modelFactsLine } from "./model-facts.ts";
import { cassettesOf, labelled, provenanceLabel } from "./provenance.ts";
import type { RunSet } from "./run-set.ts";
import type { ReportTable } from "./table.ts";
import { ablationTables } from "./tables/ablations.ts";
import { breakdownTable } from "./tables/breakdown.ts";
import { conversationRows, conversationTables } from "./tables/conversations.ts";
import { costTable } from "./tables/cost.ts";
import { failureTable, recoveredTable } from "./tables/failures.ts";
import { customMetricsOf, leaderboardTable } from "./tables/leaderboard.ts";
import { plannerTable } from "./tables/planner.ts";
import { routingTable } from "./tables/routing.ts";
import { runsTable } from "./tables/run-list.ts";

export interface ReportSection {
  id: string;
  title: string;
  paragraphs: string[];
  tables: ReportTable[];
  /** Charts drawn in this section of the html page. */
  charts: Chart[];
}

export interface Report {
  title: string;
  /** "simulated", "replayed from …", or "" for live models. */
  label: string;
  /** The command that regenerates the report (without --out, which does not change its content). */
  command: string;
  sections: ReportSection[];
  /** summary.json: the run's own when there is one run, else the union of the runs'. */
  summary: RunSummary | UnionSummary;
}

/** summary.json of a report over several runs: every run's rows, tables and comparisons together. */
export interface UnionSummary extends Omit<RunSummary, "runId"> {
  runIds: string[];
}

export function buildReport(set: RunSet, options: { reference?: string } = {}): Report {
  const reference = options.reference ?? DEFAULT_REFERENCE;
  const label = provenanceLabel(set.sources);
  const heading = (title: string) => labelled(title, label);
  const charts = buildCharts(set, reference, heading);
  const chart = (id: string) => charts.filter((candidate) => candidate.id === id);
  const ablations = ablationTables(set, reference, heading);
  const refs = set.runs.map((run) => run.ref);
  const conversations = conversationTables(set, heading);
  const section = (id: string, title: string, tables: ReportTable[], extra: Partial<ReportSection> = {}) => ({
    id,
    title,
    paragraphs: [],
    tables,
    charts: [],
    ...extra,
  });
  return {
    title: heading("OnsetLab Bench report"),
    label,
    command: `pnpm report ${refs.join(" ")}${reference === DEFAULT_REFERENCE ? "" : ` --reference ${reference}`}`,
    sections: [
      section("runs", heading("Runs"), [runsTable(set, heading("Runs"))], {
        paragraphs: provenanceParagraphs(set, label),
      }),
      section("leaderboard", heading("Leaderboard"), [leaderboardTable(set, heading("Leaderboard"))], {
        charts: chart("chart-latency"),
      }),
      section("ablations", heading("Ablations"), ablations, {
        paragraphs:
          ablations.length > 0
            ? [`Each configuration that changes one axis of \`${reference}\`, compared with it on the same items.`]
            : [`No configuration in these runs changes exactly one axis of \`${reference}\`: no ablation to show.`],
        charts: chart("chart-filter"),
      }),
      ...(conversations.length > 0 ? [section("conversations", heading("Conversations"), conversations)] : []),
      section(
        "failures",
        heading("Failure taxonomy"),
        [failureTable(set, heading("Failure taxonomy")), recoveredTable(set, heading("Recovered on the way"))],
        { charts: chart("chart-failures") },
      ),
      section("routing", heading("Routing confusion matrix"), [routingTable(set, heading("Routing confusion matrix"))]),
      section("planner", heading("Planner errors"), [plannerTable(set, heading("Planner errors"))]),
      section("categories", heading("By category"), [breakdownTable(set, "category", heading("By category"))]),
      section("servers", heading("By server"), [breakdownTable(set, "server", heading("By server"))]),
      section("cost", heading("Cost and latency"), [costTable(set, heading("Cost and latency"))]),
    ],
    summary: reportSummary(set),
  };
}

function provenanceParagraphs(set: RunSet, label: string): string[] {
  const paragraphs: string[] = [];
  if (set.sources.some((source) => inProcessSimulator(source.provenance))) {
    paragraphs.push(
      "Numbers from `sim:*` models are SIMULATED: a deterministic simulator with calibrated error rates answers in " +
        "place of a model. They test the harness against known truth; they are not evidence about any real model.",
    );
  }
  if (set.sources.some((source) => source.provenance.kind === "stand-in")) {
    paragraphs.push(
      "Numbers marked SIMULATED (STAND-IN) came through the stand-in server (`pnpm standin`): the real clients and " +
        "APIs, but the simulator answers in place of a model. They test the harness, not any real model.",
    );
  }
  if (set.runs.some((run) => run.summary.dryRun)) {
    paragraphs.push(
      "DRY RUN (`--dry-run`): write tools answered with a preview of each call instead of running it, so nothing " +
        "was written; end-state checks were not measured (n/a), never counted as the model's mistakes.",
    );
  }
  for (const cassette of cassettesOf(set.sources)) {
    paragraphs.push(`Model answers replayed from the recording \`${cassette}\` (no model ran).`);
  }
  if (label === "") paragraphs.push("Numbers from live models, as the runs measured them.");
  for (const run of set.runs) {
    if (run.manifest.sequential)
      paragraphs.push(`Run ${run.ref}, --until-significant: ${sequentialText(run.manifest.sequential)}.`);
    for (const model of run.manifest.models) {
      const line = modelFactsLine(model);
      if (line) paragraphs.push(line);
    }
  }
  return paragraphs;
}

function reportSummary(set: RunSet): RunSummary | UnionSummary {
  if (set.runs.length === 1) return set.runs[0]!.summary;
  const summaries = set.runs.map((run) => run.summary);
  return {
    format: SUMMARY_FORMAT,
    runIds: set.runs.map((run) => run.id),
    simulated: summaries.some((summary) => summary.simulated),
    provenance: set.sources,
    records: summaries.reduce((sum, summary) => sum + summary.records, 0),
    rows: summaries.flatMap((summary) => summary.rows),
    byCategory: summaries.flatMap((summary) => summary.byCategory),
    byServer: summaries.flatMap((summary) => summary.byServer),
    failures: summaries.flatMap((summary) => summary.failures),
    routing: summaries.flatMap((summary) => summary.routing),
    planner: summaries.flatMap((summary) => summary.planner),
    comparisons: summaries.flatMap((summary) => summary.comparisons),
    customMetrics: customMetricsOf(set),
    ...(conversationRows(set).length > 0 ? { conversations: { rows: conversationRows(set) } } : {}),
  };
}
