/**
 * An AgentResult shown in full, in the order the agent worked: route and why, skill, tools connected
 * and shown, every model call's request and output (expanded, copyable), the plan and its waves, tool
 * calls with arguments and results, rescues, fallback turns, write-guard blocks, the answer. Used by the
 * item page (a record from a run) and the playground (the result of a query it ran).
 */
import type { AgentResult, LoopIteration, ModelCallRecord, ToolCallRecord } from "../../agent/types.ts";
import { badge, copyable, el, jsonText } from "./dom.ts";

const block = (id: string, title: string, ...children: (Node | string | null | false)[]) =>
  el("section", { class: "trace-block", id: `trace-${id}` }, el("h3", {}, title), ...children);

export function traceView(result: AgentResult): HTMLElement {
  return el(
    "div",
    { class: "trace" },
    block(
      "route",
      "Route",
      el(
        "p",
        {},
        `path ${result.path}`,
        result.route
          ? ` · ${result.route.route} by rule “${result.route.rule}” (best tool relevance ${result.route.relevance.toFixed(2)}` +
              (result.route.llmAsked ? `; the model was asked and said ${result.route.llmAnswer ?? "nothing"}` : "") +
              ")"
          : " · no router (forced strategy)",
      ),
    ),
    block(
      "skill",
      "Skill",
      el(
        "p",
        {},
        result.skill ? `${result.skill.name} (score ${result.skill.score}, from the ${result.skill.source})` : "none",
      ),
    ),
    block(
      "tools",
      "Tools",
      el("p", {}, `${result.tools.available.length} connected, ${result.tools.filtered.length} shown to the model`),
      el(
        "details",
        {},
        el("summary", {}, "shown, in rank order"),
        el(
          "ol",
          {},
          result.tools.filtered.map((name) => {
            const score = result.tools.scores.find((entry) => entry.name === name)?.score;
            return el("li", {}, name, score === undefined ? "" : ` (${score.toFixed(2)})`);
          }),
        ),
      ),
      el(
        "details",
        {},
        el("summary", {}, "connected"),
        el("p", { class: "tool-names" }, result.tools.available.join(", ")),
      ),
    ),
    block(
      "model-calls",
      `Model calls (${result.modelCalls.length})`,
      ...result.modelCalls.map((call) => modelCallView(call)),
    ),
    result.plan
      ? block(
          "plan",
          "Plan",
          copyable(result.plan.raw, "planner output"),
          el(
            "ol",
            { class: "steps" },
            result.plan.steps.map((step) =>
              el("li", {}, el("code", {}, step.raw), step.error ? ` — ${step.error}` : ""),
            ),
          ),
          result.plan.notes.length > 0
            ? el("p", { class: "note" }, `parser notes: ${result.plan.notes.join("; ")}`)
            : null,
          el(
            "p",
            {},
            "waves: ",
            result.plan.waves.map((wave, index) => el("span", { class: "wave" }, `${index + 1}: ${wave.join(", ")}`)),
          ),
          result.steps.length > 0
            ? el(
                "ul",
                { class: "executed" },
                result.steps.map((step) =>
                  el(
                    "li",
                    {},
                    `${step.id} ${step.tool} (round ${step.round}): ${step.status}${step.reused ? ", reused" : ""}${step.error ? ` — ${step.error}` : ""}`,
                  ),
                ),
              )
            : null,
        )
      : null,
    iterationsBlock("iterations", "Turns", result.iterations),
    block(
      "tool-calls",
      `Tool calls (${result.toolCalls.length})`,
      ...result.toolCalls.map((call) => toolCallView(call)),
    ),
    result.rescues.length > 0
      ? block(
          "rescues",
          "Rescues",
          el(
            "ul",
            {},
            result.rescues.map((rescue) =>
              el(
                "li",
                {},
                `${rescue.stepId} ${rescue.tool}.${rescue.param} = ${JSON.stringify(rescue.value)} (pattern ${rescue.pattern}, round ${rescue.round})`,
              ),
            ),
          ),
        )
      : null,
    result.fallback.used
      ? el(
          "div",
          {},
          block("fallback", "Fallback", el("p", {}, `used: ${result.fallback.reason ?? "no reason recorded"}`)),
          iterationsBlock("fallback-turns", "Fallback turns", result.fallback.iterations),
        )
      : null,
    result.writeGuard.blocked.length > 0
      ? block(
          "write-guard",
          "Write guard blocks",
          el(
            "ul",
            {},
            result.writeGuard.blocked.map((blocked) =>
              el(
                "li",
                {},
                `${blocked.tool} ${JSON.stringify(blocked.args)} (${blocked.stage}; first call #${blocked.firstCallSeq})`,
              ),
            ),
          ),
        )
      : null,
    block(
      "answer",
      "Answer",
      el("p", {}, `by ${result.answeredBy} · ${Math.round(result.timings.totalMs)} ms`),
      copyable(result.answer, "answer"),
      result.error
        ? el("p", { class: "error" }, `${result.error.stage}: ${result.error.code} — ${result.error.message}`)
        : null,
    ),
  );
}

/** One model call, open: its request as sent (prompt, or chat messages) and its output. */
export function modelCallView(call: ModelCallRecord): HTMLElement {
  const request =
    call.prompt ?? (call.messages ?? []).map((message) => `[${message.role}]\n${message.content}`).join("\n\n");
  return el(
    "details",
    { class: "model-call", open: true, "data-seq": call.seq },
    el(
      "summary",
      {},
      `#${call.seq} ${call.stage} (${call.kind}) · ${Math.round(call.durationMs)} ms`,
      call.error ? badge("error", "fail") : null,
      call.invalid ? badge(`invalid: ${call.invalid}`, "invalid") : null,
    ),
    el("h4", {}, call.prompt !== undefined ? "prompt" : "messages"),
    copyable(request, "prompt"),
    call.tools && call.tools.length > 0
      ? el("p", { class: "tool-names" }, `tools offered: ${call.tools.join(", ")}`)
      : null,
    el("h4", {}, "output"),
    copyable(call.output, "output"),
    call.toolCalls && call.toolCalls.length > 0 ? copyable(jsonText(call.toolCalls), "tool calls") : null,
    call.error ? el("p", { class: "error" }, call.error) : null,
  );
}

function toolCallView(call: ToolCallRecord): HTMLElement {
  return el(
    "details",
    { class: `tool-call ${call.ok ? "ok" : "failed"}`, open: true },
    el(
      "summary",
      {},
      `#${call.seq} ${call.tool}`,
      call.stepId ? ` (${call.stepId})` : "",
      ` · ${call.stage} · ${Math.round(call.durationMs)} ms `,
      call.blocked
        ? badge("blocked by the write guard", "invalid")
        : call.ok
          ? badge("ok", "pass")
          : badge("error", "fail"),
    ),
    el("h4", {}, "arguments"),
    copyable(jsonText(call.args), "arguments"),
    call.argsPlanned ? el("p", { class: "note" }, `planned: ${JSON.stringify(call.argsPlanned)}`) : null,
    [...call.renamed, ...call.coerced, ...call.coercionProblems].length > 0
      ? el("p", { class: "note" }, [...call.renamed, ...call.coerced, ...call.coercionProblems].join("; "))
      : null,
    el("h4", {}, call.ok ? "result" : "error"),
    copyable(call.text ?? call.error?.message ?? "", "result"),
  );
}

function iterationsBlock(id: string, title: string, iterations: LoopIteration[]): HTMLElement | null {
  if (iterations.length === 0) return null;
  return block(
    id,
    title,
    ...iterations.map((turn) =>
      el(
        "div",
        { class: "turn" },
        el("h4", {}, `turn ${turn.index + 1}`),
        turn.thought ? el("p", {}, `thought: ${turn.thought}`) : null,
        turn.action ? el("p", {}, `action: ${turn.action} ${turn.input ? JSON.stringify(turn.input) : ""}`) : null,
        turn.observation ? copyable(turn.observation, "observation") : null,
        turn.final ? el("p", {}, `final: ${turn.final}`) : null,
        turn.parseError ? el("p", { class: "error" }, `not understood: ${turn.parseError}`) : null,
        turn.note ? el("p", { class: "note" }, turn.note) : null,
      ),
    ),
  );
}
