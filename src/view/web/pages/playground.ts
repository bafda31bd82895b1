/**
 * Type a query, choose a model and a configuration, and watch the stages arrive as the agent runs them
 * (POST /run streamed as server-sent events). The simulator answers only the dataset's own queries:
 * with a `sim:` model the page says so and offers the dataset queries closest to what was typed.
 */
import type { AgentEvent } from "../../../agent/events.ts";
import { getJson, postEvents, withQuery } from "../api.ts";
import { badge, copyable, el, jsonText, mount } from "../dom.ts";
import type { PageRender } from "../main.ts";
import { traceView } from "../trace.ts";
import type { ConfigInfo, ModelInfo, QueryHit, RunQueryResponse } from "../types.ts";

export const playgroundPage: PageRender = async (root, route, signal) => {
  const [models, configs] = await Promise.all([getJson<ModelInfo[]>("/models"), getJson<ConfigInfo[]>("/configs")]);
  const chosenModel = route.query.get("model") ?? models.find((model) => model.simulated)?.name ?? models[0]?.name;
  const model = el(
    "select",
    { name: "model", id: "pg-model" },
    models.map((entry) => el("option", { value: entry.name, selected: entry.name === chosenModel }, entry.name)),
  );
  const config = el(
    "select",
    { name: "config", id: "pg-config" },
    configs.map((entry) =>
      el(
        "option",
        { value: entry.name, selected: entry.name === "onsetlab" },
        // a user's own prompt says so: its file and the protocol it drives
        entry.agent ? `${entry.name} (agent ${entry.agent.file}, ${entry.agent.protocol})` : entry.name,
      ),
    ),
  );
  const query = el("textarea", {
    name: "query",
    id: "pg-query",
    rows: 3,
    placeholder: "Ask something the tools can do",
  });
  const simNote = el("div", { id: "sim-note", class: "panel" });
  const stages = el("ol", { id: "stages" });
  const outcome = el("div", { id: "outcome" });
  const run = el("button", { type: "submit" }, "Run");
  let itemId: string | undefined;

  const isSimulated = () => models.find((entry) => entry.name === model.value)?.simulated ?? false;
  let lookup = 0;
  const offerQueries = async () => {
    if (!isSimulated()) {
      simNote.hidden = true;
      return;
    }
    simNote.hidden = false;
    const ticket = ++lookup;
    const hits = await getJson<QueryHit[]>(withQuery("/queries", { q: query.value, limit: 8 }));
    if (ticket !== lookup || signal.aborted) return;
    mount(
      simNote,
      el(
        "p",
        {},
        `${model.value} is the simulator: it answers only the dataset's own queries (it knows their gold answers). ` +
          "Pick one, or type to find the closest:",
      ),
      el(
        "ul",
        { class: "queries" },
        hits.map((hit) =>
          el(
            "li",
            {},
            el(
              "button",
              {
                type: "button",
                class: "query-pick",
                "data-item": hit.id,
                onclick: () => {
                  query.value = hit.query;
                  itemId = hit.id;
                },
              },
              hit.query,
            ),
            ` (${hit.id}, ${hit.category})`,
          ),
        ),
      ),
    );
  };
  let typing: ReturnType<typeof setTimeout> | undefined;
  query.addEventListener("input", () => {
    itemId = undefined;
    clearTimeout(typing);
    typing = setTimeout(() => void offerQueries(), 200);
  });
  model.addEventListener("change", () => void offerQueries());

  const form = el(
    "form",
    { id: "playground", class: "panel" },
    el("label", {}, "model ", model),
    el("label", {}, "configuration ", config),
    el("label", { class: "wide" }, "query ", query),
    run,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    stages.replaceChildren();
    outcome.replaceChildren();
    run.disabled = true;
    const body = { query: query.value, model: model.value, config: config.value, ...(itemId ? { itemId } : {}) };
    postEvents(
      "/run",
      body,
      (name, data) => {
        if (name === "stage") stages.append(stageItem(data as AgentEvent));
        else if (name === "done") mount(outcome, doneView(data as RunQueryResponse));
        else if (name === "error") mount(outcome, errorView(data));
      },
      signal,
    )
      .catch((error: Error) => {
        if (!signal.aborted) mount(outcome, el("p", { class: "error", role: "alert" }, error.message));
      })
      .finally(() => {
        run.disabled = false;
      });
  });

  mount(root, el("h1", {}, "Playground"), form, simNote, el("h2", {}, "Stages"), stages, outcome);
  await offerQueries();
};

/** One stage as it arrives: a line saying what happened, and the text it carries (prompt, output, result) below. */
function stageItem(event: AgentEvent): HTMLElement {
  const [line, detail] = stageText(event);
  return el(
    "li",
    { class: "stage", "data-type": event.type },
    el("span", { class: "stage-type" }, event.type),
    " ",
    line,
    detail === undefined ? null : copyable(detail.text, detail.label),
  );
}

function stageText(event: AgentEvent): [string, { text: string; label: string }?] {
  switch (event.type) {
    case "route":
      return [`${event.decision.route} by rule “${event.decision.rule}”`];
    case "skill":
      return [event.skill ? `${event.skill.name} (from the ${event.skill.source})` : "none"];
    case "tools_shown":
      return [`${event.shown.length} of ${event.available} tools: ${event.shown.join(", ")}`];
    case "model_call_start": {
      const request =
        event.prompt ?? (event.messages ?? []).map((message) => `[${message.role}]\n${message.content}`).join("\n\n");
      return [`#${event.seq} ${event.stage} (${event.kind}) asked`, { text: request, label: "prompt" }];
    }
    case "model_call_end":
      return [
        `#${event.seq} ${event.stage} answered in ${Math.round(event.durationMs)} ms${event.error ? `: ${event.error}` : ""}`,
        { text: event.output, label: "output" },
      ];
    case "plan":
      return [`${event.steps.length} steps`, { text: event.raw, label: "planner output" }];
    case "wave":
      return [`round ${event.round}: ${event.steps.join(", ")} together`];
    case "tool_call":
      return [`${event.tool}${event.stepId ? ` (${event.stepId})` : ""} ${JSON.stringify(event.args)}`];
    case "tool_result":
      return [`${event.call.tool}: ${event.call.ok ? "ok" : "error"}`, { text: event.text, label: "result" }];
    case "rescue":
      return [
        event.rescues.map((rescue) => `${rescue.tool}.${rescue.param} = ${JSON.stringify(rescue.value)}`).join("; "),
      ];
    case "fallback":
      return [event.reason];
    case "turn":
      return [`${event.stage} turn ${event.iteration.index + 1}`, { text: jsonText(event.iteration), label: "turn" }];
    case "write_guard_block":
      return [`${event.tool} ${JSON.stringify(event.args)} (${event.stage})`];
    case "answer":
      return [
        `by ${event.answeredBy}${event.error ? ` (${event.error.message})` : ""}`,
        { text: event.answer, label: "answer" },
      ];
  }
}

function doneView(response: RunQueryResponse): HTMLElement {
  return el(
    "section",
    { id: "done" },
    el("h2", {}, "Answer"),
    copyable(response.answer, "answer"),
    response.score
      ? el(
          "p",
          { id: "score" },
          `${response.item?.id ?? "item"} (${response.item?.category ?? ""}): `,
          response.score.taskSuccess ? badge("pass", "pass") : badge("fail", "fail"),
          response.score.failures.length > 0 ? ` ${response.score.failures.join(", ")}` : "",
        )
      : null,
    response.closeItems && response.closeItems.length > 0
      ? el(
          "div",
          { class: "panel" },
          el("p", {}, "The simulator answers only dataset queries; these are close to yours:"),
          el(
            "ul",
            {},
            response.closeItems.map((item) => el("li", {}, `${item.query} (${item.id})`)),
          ),
        )
      : null,
    el("details", {}, el("summary", {}, "the whole trace"), traceView(response.result)),
  );
}

function errorView(data: unknown): HTMLElement {
  const error = (data as { error?: { message?: string } }).error;
  return el("p", { class: "error", role: "alert" }, error?.message ?? jsonText(data));
}
