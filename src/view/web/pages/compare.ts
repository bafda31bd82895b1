/**
 * Two configurations (of one run, or B from another run) item by item: how many items each passes
 * alone, and the items themselves, filtered by category, server and failure class and paged by the server.
 */
import { FAILURE_KINDS } from "../../../bench/scoring/score-types.ts";
import { getJson, withQuery } from "../api.ts";
import { badge, crumbs, dataTable, el, mount } from "../dom.ts";
import type { PageRender } from "../main.ts";
import { href, withChanged } from "../route.ts";
import type { ComparePage, RunDetail } from "../types.ts";
import { pager } from "./items.ts";

const FILTERS = ["category", "server", "failure", "only"] as const;

export const comparePage: PageRender = async (root, route) => {
  const runId = route.path[1]!;
  const query = Object.fromEntries(route.query) as Record<string, string>;
  const runB = query.runB || runId;
  const [result, detail] = await Promise.all([
    getJson<ComparePage>(withQuery(`/runs/${encodeURIComponent(runId)}/compare`, query)),
    getJson<RunDetail>(`/runs/${encodeURIComponent(runId)}`),
  ]);
  const groups = (by: "byCategory" | "byServer") => [
    ...new Set((detail.summary?.[by] ?? []).map((row) => row.group?.value ?? "")),
  ];
  const options: Record<(typeof FILTERS)[number], string[]> = {
    category: groups("byCategory"),
    server: groups("byServer"),
    failure: [...FAILURE_KINDS],
    only: ["differ", "a", "b"],
  };
  const a = `${query.a ?? "?"}`;
  const b = `${query.b ?? "?"}${runB === runId ? "" : ` (${runB})`}`;
  const side = (value: ComparePage["rows"][number]["a"], run: string) =>
    el(
      "a",
      { href: href(["runs", run, "items", value.key]) },
      value.pass ? badge("pass", "pass") : badge("fail", "fail"),
      value.failureClass ? ` ${value.failureClass}` : "",
    );
  const pages = Math.max(1, Math.ceil(result.total / result.pageSize));
  mount(
    root,
    crumbs(runId, "compare"),
    el("h1", {}, `A: ${a}  vs  B: ${b}`),
    el(
      "table",
      { id: "compare-counts" },
      el(
        "tbody",
        {},
        el("tr", {}, el("th", {}, "both pass"), el("td", { class: "num", "data-count": "both" }, result.counts.both)),
        el(
          "tr",
          {},
          el("th", {}, "only A passes"),
          el("td", { class: "num", "data-count": "aOnly" }, result.counts.aOnly),
        ),
        el(
          "tr",
          {},
          el("th", {}, "only B passes"),
          el("td", { class: "num", "data-count": "bOnly" }, result.counts.bOnly),
        ),
        el(
          "tr",
          {},
          el("th", {}, "neither"),
          el("td", { class: "num", "data-count": "neither" }, result.counts.neither),
        ),
      ),
    ),
    el(
      "form",
      { class: "filters" },
      FILTERS.map((name) =>
        el(
          "label",
          {},
          `${name} `,
          el(
            "select",
            {
              name,
              onchange: (event: Event) => {
                location.hash = withChanged(route, {
                  [name]: (event.target as HTMLSelectElement).value,
                  page: undefined,
                });
              },
            },
            el("option", { value: "" }, "all"),
            options[name].map((value) => el("option", { value, selected: value === query[name] }, value)),
          ),
        ),
      ),
    ),
    el("p", { class: "count" }, `${result.total} items`),
    dataTable(
      "compare-rows",
      ["item", "category", "servers", `A: ${a}`, `B: ${b}`],
      result.rows.map((row) =>
        el(
          "tr",
          { "data-item": row.itemId },
          el("td", {}, row.itemId),
          el("td", {}, row.category),
          el("td", {}, row.servers.join(", ")),
          el("td", {}, side(row.a, runId)),
          el("td", {}, side(row.b, runB)),
        ),
      ),
    ),
    pager(result.page, pages, (page) => {
      location.hash = withChanged(route, { page });
    }),
  );
};
