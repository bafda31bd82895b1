/**
 * One run: its header, live progress while it runs, the report's tables built in the browser from
 * summary.json (the same builders as `pnpm report`), charts for its kind, a comparison form, and its
 * items, filtered and paged by the server.
 */

import { DEFAULT_REFERENCE } from "../../../report/ablation.ts";
import { renderNotes, renderTable } from "../../../report/html.ts";
import { labelled, provenanceLabel } from "../../../report/provenance.ts";
import { type RunSet, runSetOf } from "../../../report/run-set.ts";
import type { ReportTable } from "../../../report/table.ts";
import { ablationTables } from "../../../report/tables/ablations.ts";
import { breakdownTable } from "../../../report/tables/breakdown.ts";
import { costTable } from "../../../report/tables/cost.ts";
import { failureTable, recoveredTable } from "../../../report/tables/failures.ts";
import { leaderboardTable } from "../../../report/tables/leaderboard.ts";
import { plannerTable } from "../../../report/tables/planner.ts";
import { routingTable } from "../../../report/tables/routing.ts";
import { runLabel } from "../../../serve/run-label.ts";
import { getJson } from "../api.ts";
import { chartFigure, runCharts } from "../charts.ts";
import { badge, crumbs, el, mount, whenText } from "../dom.ts";
import type { PageRender } from "../main.ts";
import { href } from "../route.ts";
import type { RunDetail, RunListEntry } from "../types.ts";
import { firstItems, itemBrowser } from "./items.ts";
import { liveProgress } from "./live.ts";
import { labelKind } from "./runs.ts";

export const runPage: PageRender = async (root, route, signal) => {
  const runId = route.path[1]!;
  const items = firstItems(runId, route);
  // the item browser reports its failure; a failed summary must not leave this one unhandled
  items.catch(() => undefined);
  const [detail, runs] = await Promise.all([
    getJson<RunDetail>(`/runs/${encodeURIComponent(runId)}`),
    getJson<RunListEntry[]>("/runs"),
  ]);
  const { manifest, summary, progress } = detail;
  const listed = runs.find((run) => run.runId === runId);
  const label = listed?.label ?? runLabel(manifest.models.map((model) => model.provenance));
  const set = summary ? runSetOf([{ id: runId, ref: runId, dir: "", manifest, summary }]) : undefined;
  mount(
    root,
    crumbs(runId),
    el("h1", {}, runId, " ", badge(label, labelKind(label))),
    el(
      "p",
      { class: "facts" },
      `${manifest.models.map((model) => model.name).join(", ")} · ${manifest.request.matrix ?? "default configurations"} · ` +
        `${manifest.dataset.items} items · ${manifest.tasks} tasks · started ${whenText(manifest.startedAt)}` +
        (manifest.finishedAt ? ` · finished ${whenText(manifest.finishedAt)}` : ""),
    ),
    detail.recordsRead !== undefined && summary
      ? el(
          "p",
          { class: "warning", role: "alert" },
          `Truncated run: its summary counts ${summary.records} records, but the records file holds ` +
            `${detail.recordsRead}. The tables describe records the items list no longer has; ` +
            `\`pnpm bench --resume ${runId}\` runs the missing ones again.`,
        )
      : null,
    jumpTo(set !== undefined),
    progress && listed?.running
      ? liveProgress(runId, progress, signal, () => {
          if (!signal.aborted) void runPage(root, route, signal);
        })
      : null,
    set
      ? reportSections(set, label !== "live", signal)
      : el("p", { class: "empty" }, "No summary yet: the run has not finished."),
    compareForm(runId, manifest.configs, runs),
    itemBrowser(runId, detail, route, signal, items),
  );
};

function reportSections(set: RunSet, simulated: boolean, signal: AbortSignal): HTMLElement[] {
  const label = provenanceLabel(set.sources);
  const heading = (title: string) => labelled(title, label);
  const reference = set.configs.includes(DEFAULT_REFERENCE) ? DEFAULT_REFERENCE : set.configs[0]!;
  const ablations = ablationTables(set, reference, heading);
  const section = (id: string, title: string, tables: ReportTable[], open = true) =>
    el("details", { class: "section", id: `section-${id}`, open }, el("summary", {}, title), tables.map(tableBlock));
  return [
    el(
      "section",
      { class: "charts", id: "section-charts" },
      runCharts(set, !simulated).map((chart) => chartFigure(chart, signal)),
      categoryFigure(set, heading("Task success by category")),
    ),
    section("leaderboard", heading("Leaderboard"), [leaderboardTable(set, heading("Leaderboard"))]),
    ablations.length > 0
      ? section("ablations", heading(`Ablations against ${reference}`), ablations)
      : el(
          "p",
          { class: "empty" },
          `No configuration here changes exactly one axis of ${reference}: no ablation to show.`,
        ),
    section("failures", heading("Failure taxonomy"), [
      failureTable(set, heading("Failure taxonomy")),
      recoveredTable(set, heading("Recovered on the way")),
    ]),
    section("routing", heading("Routing confusion matrix"), [routingTable(set, heading("Routing confusion matrix"))]),
    section("planner", heading("Planner errors"), [plannerTable(set, heading("Planner errors"))], false),
    section(
      "breakdowns",
      heading("By category and by server"),
      [breakdownTable(set, "category", heading("By category")), breakdownTable(set, "server", heading("By server"))],
      false,
    ),
    section("cost", heading("Cost and latency"), [costTable(set, heading("Cost and latency"))], false),
  ];
}

/** Task success by category as a table of bars: a row per configuration, a bar per category. */
function categoryFigure(set: RunSet, title: string): HTMLElement {
  const figure = el("figure", { class: "chart", id: "category-bars" }, el("figcaption", {}, title));
  figure.insertAdjacentHTML("beforeend", renderTable(breakdownTable(set, "category", title), { bars: true }));
  return figure;
}

/**
 * Links at the top of a run to its parts further down, the items first: the page is long (charts, seven
 * tables), and the hash is the page's route, so a link scrolls instead of changing it.
 */
function jumpTo(summarized: boolean): HTMLElement {
  const link = (target: string, text: string) =>
    el(
      "a",
      {
        href: location.hash,
        "data-target": target,
        onclick: (event: Event) => {
          event.preventDefault();
          const part = document.getElementById(target);
          if (part instanceof HTMLDetailsElement) part.open = true;
          part?.scrollIntoView({ block: "start" });
        },
      },
      text,
    );
  return el(
    "nav",
    { class: "jump", id: "jump" },
    "Go to: ",
    link("items-section", "Items"),
    summarized
      ? [
          link("section-leaderboard", "Leaderboard"),
          link("section-failures", "Failures"),
          link("section-breakdowns", "By category and server"),
        ]
      : null,
    link("compare-form", "Compare"),
  );
}

/** The report's own table markup (escaped by renderTable), with its title and notes. */
function tableBlock(table: ReportTable): HTMLElement {
  const block = el("div", { class: "report-table" }, el("h3", {}, table.title));
  block.insertAdjacentHTML("beforeend", renderTable(table));
  block.insertAdjacentHTML("beforeend", renderNotes(table.notes));
  return block;
}

function compareForm(runId: string, configs: string[], runs: RunListEntry[]): HTMLElement {
  const select = (name: string, chosen: string | undefined) =>
    el(
      "select",
      { name },
      configs.map((config) => el("option", { value: config, selected: config === chosen }, config)),
    );
  const a = select("a", configs[0]);
  const b = select("b", configs[1] ?? configs[0]);
  const runB = el(
    "select",
    { name: "runB" },
    el("option", { value: "" }, "(this run)"),
    runs.filter((run) => run.runId !== runId).map((run) => el("option", { value: run.runId }, run.runId)),
  );
  const form = el(
    "form",
    { id: "compare-form", class: "panel" },
    el("h2", {}, "Compare item by item"),
    el("label", {}, "configuration A ", a),
    el("label", {}, "configuration B ", b),
    el("label", {}, "B from run ", runB),
    el("button", { type: "submit" }, "Compare"),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    location.hash = href(["runs", runId, "compare"], { a: a.value, b: b.value, runB: runB.value });
  });
  return form;
}
