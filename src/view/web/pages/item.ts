/**
 * One record of a run: what the item asked, its score check by check (which failed and why), and the
 * whole trace; a conversation's record, turn by turn (conversation.ts).
 */
import { getJson } from "../api.ts";
import { badge, crumbs, dataTable, el, mount } from "../dom.ts";
import type { PageRender } from "../main.ts";
import { traceView } from "../trace.ts";
import type { Check, ItemDetail } from "../types.ts";
import { mountConversation } from "./conversation.ts";
import { outcomeBadge } from "./items.ts";

export const itemPage: PageRender = async (root, route) => {
  const [, runId, , key] = route.path as [string, string, string, string];
  const record = await getJson<ItemDetail>(`/runs/${encodeURIComponent(runId)}/items/${encodeURIComponent(key)}`);
  if (record.conversation) {
    mountConversation(root, runId, record, record.conversation);
    return;
  }
  const { score } = record;
  mount(
    root,
    recordHeader(runId, record, record.category),
    el("blockquote", { class: "query" }, record.result.query),
    el("h2", {}, "Score"),
    score.failures.length > 0
      ? el(
          "p",
          {},
          "Failed: ",
          score.failures.map((kind, index) => badge(kind, index === 0 ? "fail" : "muted")),
        )
      : null,
    checksTable(record.checks),
    el("h2", {}, "Trace"),
    traceView(record.result),
  );
};

/** A record's crumbs, its title with its outcome, and its facts after `what` it is. */
export function recordHeader(runId: string, record: ItemDetail, what: string): HTMLElement[] {
  const { score, session } = record;
  return [
    crumbs(runId, record.itemId),
    el(
      "h1",
      {},
      `${record.itemId} · ${record.model} · ${record.config}`,
      " ",
      outcomeBadge({ taskSuccess: score.taskSuccess, ...(score.invalid ? { invalid: score.invalid } : {}) }),
    ),
    el(
      "p",
      { class: "facts" },
      `${what} · servers ${session.servers.join(", ")} (exposure ${session.exposure}) · repeat ${record.repeat} · ${Math.round(record.taskMs)} ms`,
    ),
  ];
}

export function checksTable(checks: Check[], id = "checks"): HTMLElement {
  return dataTable(
    id,
    ["check", "result", "why"],
    checks.map((check) =>
      el(
        "tr",
        { class: check.pass ? "pass" : "fail", "data-check": check.name },
        el("td", {}, check.name),
        el("td", {}, check.pass ? badge("pass", "pass") : badge("fail", "fail")),
        el("td", {}, check.why),
      ),
    ),
  );
}
