/** The runs list (newest first) and a form that starts a bench in the server process. */
import { percentText } from "../../../report/format.ts";
import { getJson, postJson } from "../api.ts";
import { badge, type Child, dataTable, el, mount, whenText } from "../dom.ts";
import type { PageRender } from "../main.ts";
import { href } from "../route.ts";
import type { ModelInfo, RunListEntry } from "../types.ts";

const configurationsText = (count: number) => `${count} configuration${count === 1 ? "" : "s"}`;

/** "72.0%" for one row; "36.4–77.2%" and "best jsonl-constrained" under it for several; empty before the summary. */
function successCell(run: RunListEntry): Child {
  const rows = run.taskSuccess.filter((row) => row.value !== null);
  if (rows.length === 0) return "";
  const best = rows.reduce((a, b) => (b.value! > a.value! ? b : a));
  if (rows.length === 1) return percentText(best.value);
  const worst = Math.min(...rows.map((row) => row.value!));
  const name = run.models.length > 1 ? `${best.model} · ${best.config}` : best.config;
  return [`${percentText(worst)}–${percentText(best.value)}`, el("span", { class: "best" }, `best ${name}`)];
}

/** The suite's name, else the dataset's file names. */
const datasetText = (run: RunListEntry) => run.dataset.suite ?? run.dataset.files.join(", ");

export const labelKind = (label: string): string => (label === "live" ? "live" : "sim");

export const runsPage: PageRender = async (root) => {
  const [runs, models, matrices] = await Promise.all([
    getJson<RunListEntry[]>("/runs"),
    getJson<ModelInfo[]>("/models"),
    getJson<Record<string, string[]>>("/matrices"),
  ]);
  const rows = runs.map((run) =>
    el(
      "tr",
      { "data-run": run.runId },
      el("td", {}, el("a", { href: href(["runs", run.runId]) }, run.runId)),
      el("td", {}, run.models.join(", ")),
      el("td", {}, run.matrix ?? configurationsText(run.configs.length)),
      el("td", { class: "num success" }, successCell(run)),
      el("td", {}, datasetText(run)),
      el("td", { class: "num" }, run.items),
      el("td", { class: "num" }, `${run.records} / ${run.tasks}`),
      el("td", {}, whenText(run.startedAt)),
      el("td", {}, badge(run.label, labelKind(run.label))),
      el("td", { class: "num" }, run.invalid),
      el("td", {}, run.running ? badge("running", "running") : run.finishedAt ? "finished" : "stopped"),
    ),
  );
  mount(
    root,
    el("h1", {}, "Runs"),
    runs.length === 0
      ? el("p", { class: "empty" }, "No runs yet: start one below or with `pnpm bench`.")
      : dataTable(
          "runs",
          [
            "run",
            "models",
            "matrix",
            "task success",
            "dataset",
            "items",
            "records / tasks",
            "started",
            "numbers",
            "invalid",
            "state",
          ],
          rows,
        ),
    benchForm(models, matrices),
  );
};

function benchForm(models: ModelInfo[], matrices: Record<string, string[]>): HTMLElement {
  const model = el(
    "select",
    { name: "model" },
    models.map((entry) => el("option", { value: entry.name }, entry.name)),
  );
  const matrix = el(
    "select",
    { name: "matrix" },
    el("option", { value: "" }, "(the model's default configurations)"),
    Object.entries(matrices).map(([name, configs]) =>
      el("option", { value: name }, `${name} (${configurationsText(configs.length)})`),
    ),
  );
  const limit = el("input", { name: "limit", type: "number", min: 1, value: 10 });
  const status = el("p", { class: "status", role: "status" });
  const form = el(
    "form",
    { id: "bench-form", class: "panel" },
    el("h2", {}, "Start a bench"),
    el("label", {}, "model ", model),
    el("label", {}, "matrix ", matrix),
    el("label", {}, "items (a sample over the categories) ", limit),
    el("button", { type: "submit" }, "Start"),
    status,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    status.textContent = "Starting…";
    postJson<{ runId: string }>("/bench", {
      models: [model.value],
      ...(matrix.value ? { matrix: matrix.value } : {}),
      limit: Number(limit.value),
    }).then(
      ({ runId }) => {
        location.hash = href(["runs", runId]);
      },
      (error: Error) => {
        status.textContent = error.message;
        status.classList.add("error");
      },
    );
  });
  return form;
}
