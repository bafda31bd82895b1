/**
 * A run's items, filtered and paged by the server (`GET /runs/:id/items`): the page never holds more
 * than one page of rows. The filters live in the page's address, so a filtered list can be linked.
 */
import { FAILURE_KINDS } from "../../../bench/scoring/score-types.ts";
import { getJson, withQuery } from "../api.ts";
import { badge, dataTable, el, mount } from "../dom.ts";
import { href, type Route } from "../route.ts";
import type { ItemPage, RunDetail } from "../types.ts";

const FILTERS = ["model", "config", "category", "server", "failure", "outcome", "q"] as const;
type Filter = (typeof FILTERS)[number];
const PAGE_SIZE = 50;

/** `pass`, `fail` or the reason it could not be scored. */
export function outcomeBadge(row: { taskSuccess: boolean; invalid?: string }): HTMLElement {
  if (row.invalid) return badge(`invalid: ${row.invalid}`, "invalid");
  return row.taskSuccess ? badge("pass", "pass") : badge("fail", "fail");
}

type ItemsState = Record<Filter | "page", string>;

/** The filters and page the route names. */
function itemsState(route: Route): ItemsState {
  return {
    ...(Object.fromEntries(FILTERS.map((name) => [name, route.query.get(name) ?? ""])) as Record<Filter, string>),
    page: route.query.get("page") ?? "1",
  };
}

const fetchItems = (runId: string, state: ItemsState) =>
  getJson<ItemPage>(withQuery(`/runs/${encodeURIComponent(runId)}/items`, { ...state, pageSize: PAGE_SIZE }));

/** The route's first page of items, asked for at once (the run page starts it beside the run's summary). */
export const firstItems = (runId: string, route: Route): Promise<ItemPage> => fetchItems(runId, itemsState(route));

export function itemBrowser(
  runId: string,
  detail: RunDetail,
  route: Route,
  signal: AbortSignal,
  first: Promise<ItemPage>,
): HTMLElement {
  const state = itemsState(route);
  const groups = (by: "byCategory" | "byServer") => [
    ...new Set((detail.summary?.[by] ?? []).map((row) => row.group?.value ?? "")),
  ];
  const options: Record<Exclude<Filter, "q">, string[]> = {
    model: detail.manifest.models.map((model) => model.name),
    config: detail.manifest.configs,
    category: groups("byCategory"),
    server: groups("byServer"),
    failure: [...FAILURE_KINDS],
    outcome: ["pass", "fail", "invalid"],
  };
  const list = el("div", { class: "items-list" });
  const controls = el(
    "form",
    { class: "filters" },
    (Object.keys(options) as Exclude<Filter, "q">[]).map((name) =>
      el(
        "label",
        {},
        `${name} `,
        el(
          "select",
          { name, onchange: (event: Event) => change(name, (event.target as HTMLSelectElement).value) },
          el("option", { value: "" }, "all"),
          options[name].map((value) => el("option", { value, selected: value === state[name] }, value)),
        ),
      ),
    ),
    el(
      "label",
      {},
      "search ",
      el("input", {
        name: "q",
        type: "search",
        value: state.q,
        placeholder: "item id or query",
        onchange: (event: Event) => change("q", (event.target as HTMLInputElement).value),
      }),
    ),
  );
  controls.addEventListener("submit", (event) => event.preventDefault());

  const change = (name: Filter | "page", value: string) => {
    state[name] = value;
    if (name !== "page") state.page = "1";
    // keep the filters in the address without leaving the page
    history.replaceState(null, "", href(route.path, state));
    void load();
  };

  let loading = 0;
  const load = async (pending?: Promise<ItemPage>) => {
    const ticket = ++loading;
    const page = await (pending ?? fetchItems(runId, state));
    if (ticket !== loading || signal.aborted) return;
    const pages = Math.max(1, Math.ceil(page.total / page.pageSize));
    mount(
      list,
      el("p", { class: "count" }, `${page.total} records · page ${page.page} of ${pages}`),
      dataTable(
        "items",
        ["item", "model", "config", "repeat", "category", "servers", "outcome", "failure"],
        page.rows.map((row) =>
          el(
            "tr",
            { "data-key": row.key },
            el("td", {}, el("a", { href: href(["runs", runId, "items", row.key]) }, row.itemId)),
            el("td", {}, row.model),
            el("td", {}, row.config),
            el("td", { class: "num" }, row.repeat),
            el("td", {}, row.category),
            el("td", {}, row.servers.join(", ")),
            el("td", {}, outcomeBadge(row)),
            el("td", {}, row.failureClass ?? ""),
          ),
        ),
      ),
      pager(page.page, pages, (next) => change("page", String(next))),
    );
  };
  void load(first).catch((error: Error) => mount(list, el("p", { class: "error" }, error.message)));
  // a run of conversations lists one record per conversation (its page shows the turns)
  const heading = detail.manifest.dataset.kind === "conversations" ? "Conversations" : "Items";
  return el("section", { id: "items-section" }, el("h2", {}, heading), controls, list);
}

/** Previous / next buttons around "page N of M". */
export function pager(page: number, pages: number, go: (page: number) => void): HTMLElement {
  return el(
    "nav",
    { class: "pager" },
    el("button", { type: "button", disabled: page <= 1, onclick: () => go(page - 1) }, "← previous"),
    ` ${page} / ${pages} `,
    el("button", { type: "button", disabled: page >= pages, onclick: () => go(page + 1) }, "next →"),
  );
}
