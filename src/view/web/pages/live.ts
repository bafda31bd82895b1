/** A running bench's progress, kept current by the run's server-sent events: done of total, and task success so far per configuration. */
import type { BenchProgress } from "../../../bench/run/bench.ts";
import { rate } from "../../../bench/scoring/rate.ts";
import { rateText } from "../../../report/format.ts";
import { eventSource } from "../api.ts";
import { el, mount } from "../dom.ts";

export function liveProgress(
  runId: string,
  initial: BenchProgress,
  signal: AbortSignal,
  onFinished: () => void,
): HTMLElement {
  const bar = el("progress", { max: initial.total, value: initial.done });
  const count = el("span", { class: "count" });
  const body = el("tbody");
  const panel = el(
    "section",
    { id: "live", class: "panel" },
    el("h2", {}, "Running"),
    el("p", {}, bar, " ", count),
    el(
      "table",
      { id: "live-rates" },
      el("thead", {}, el("tr", {}, el("th", {}, "config"), el("th", { class: "num" }, "task success so far"))),
      body,
    ),
  );
  const show = (progress: BenchProgress) => {
    bar.max = progress.total;
    bar.value = progress.done;
    count.textContent = `${progress.done} / ${progress.total} tasks`;
    panel.dataset.done = String(progress.done);
    mount(
      body,
      Object.entries(progress.running).map(([config, { ok, n }]) =>
        el(
          "tr",
          { "data-config": config, "data-n": n },
          el("td", {}, config),
          el("td", { class: "num" }, rateText(rate(ok, n), "counts")),
        ),
      ),
    );
  };
  show(initial);
  const events = eventSource(`/runs/${encodeURIComponent(runId)}/events`);
  events.addEventListener("progress", (event) =>
    show(JSON.parse((event as MessageEvent<string>).data) as BenchProgress),
  );
  events.addEventListener("finished", () => {
    events.close();
    onFinished();
  });
  signal.addEventListener("abort", () => events.close());
  return panel;
}
