/**
 * One query's trace (an AgentResult) as compact terminal text for `pnpm agent`: what each stage
 * decided and why — route, skill, filtered tools, plan, waves, tool calls, rescues, fallback, write
 * guard, answer, timings, model calls — and, for a dataset item, how the bench scores it.
 */
import type { AgentResult, ModelCallRecord, PlanStep, ToolCallRecord } from "../agent/types.ts";
import type { ItemScore } from "../bench/scoring/score-types.ts";
import { factLines } from "./wrap.ts";

export interface TracePrintOptions {
  /** The model as the user named it. */
  model: string;
  /** Where the model's answers come from, e.g. "simulated: …"; printed beside the model. */
  modelNote?: string;
  /** The configuration's name in models.yaml. */
  configName: string;
  /** Provider-reported timings came from the simulator: they are labelled "simulated". */
  simulated: boolean;
  /** Prompts and raw outputs of every model call. */
  verbose?: boolean;
  /** The bench's score of the run, when the query is a dataset item's. */
  score?: ItemScore;
  /** Tools listed with their relevance scores (default 5). */
  topTools?: number;
  /** The terminal's width: a longer line is wrapped at spaces, its continuation indented (prompts and outputs are not). */
  width?: number | undefined;
}

/** Arguments and texts longer than this are cut (unless verbose). */
const CLIP = 160;
const LABEL = 12;

export function formatTrace(result: AgentResult, options: TracePrintOptions): string {
  const out: string[] = [];
  const push = (prefix: string, text: string) => out.push(...factLines(prefix, text, options.width));
  const line = (label: string, text: string) => push(label.padEnd(LABEL), text);
  const more = (text: string, depth = 1) => push(" ".repeat(LABEL + 2 * (depth - 1)), text);
  // a prompt's or an output's own lines, as the model saw or wrote them
  const verbatim = (text: string) => out.push(`${" ".repeat(LABEL + 4)}${text}`);
  // one line per fact: line breaks inside a value are shown as ↵ (verbose keeps every character)
  const clip = (text: string) => {
    const flat = text.replace(/\r?\n/g, " ↵ ");
    return options.verbose ? flat : clipText(flat, CLIP);
  };

  line("query", result.query);
  line("model", options.modelNote ? `${options.model} (${options.modelNote})` : options.model);
  line("config", `${options.configName}: ${configText(result)}`);
  const prompt = result.definition;
  if (prompt && result.config.definition) {
    const files = prompt.files.map((file) => `${file.path} ${file.injectedChars}${file.truncated ? " (cut)" : ""}`);
    line(
      "prompt",
      `${result.config.definition.file} (${prompt.protocol}, hash ${prompt.hash}): ${prompt.promptChars} chars` +
        (files.length > 0 ? ` · files: ${files.join(", ")}` : ""),
    );
  }
  if (result.route) {
    const { route, rule, relevance, llmAsked, llmAnswer } = result.route;
    const llm = llmAsked ? `model asked: ${llmAnswer ?? "no answer"}` : "model not asked";
    line("route", `${route} by rule ${rule} · relevance ${round(relevance)} · ${llm}`);
  }
  line("path", result.path);
  line(
    "skill",
    result.skill ? `${result.skill.name} (score ${round(result.skill.score)}, from ${result.skill.source})` : "none",
  );
  line("tools", toolsText(result, options.topTools ?? 5));
  if (result.tools.blind) {
    more("warning: the filter could not tell the tools apart (no tool shared a word with the query):");
    more("  these are the first tools in registry order (models.yaml `filter: all` shows every tool)");
  }

  if (result.plan) {
    const { raw, steps, notes, waves } = result.plan;
    line("plan", "raw:");
    for (const rawLine of raw.trim().split("\n")) more(`  ${clip(rawLine)}`);
    // the plan's steps are kept as last executed: after a rescue, with the injected values
    const parsed = result.rescues.length > 0 ? "parsed, as patched by the rescue:" : "parsed:";
    more(steps.length > 0 ? parsed : "parsed: no steps");
    for (const step of steps) more(`  ${stepText(step, clip)}`);
    for (const note of notes) more(`  note: ${note}`);
    if (waves.length > 0) line("waves", waves.map((wave) => `[${wave.join(", ")}]`).join(" → "));
  }
  const rounds = [...new Set(result.steps.map((step) => step.round))];
  rounds.forEach((round, index) => {
    const text = result.steps
      .filter((step) => step.round === round)
      .map(
        (step) =>
          `${step.id} ${step.tool} ${step.status}${step.reused ? " (reused)" : ""}${step.error ? `: ${clip(step.error)}` : ""}`,
      )
      .join(" · ");
    if (index === 0) line("steps", `round ${round}: ${text}`);
    else more(`round ${round}: ${text}`);
  });
  if (result.iterations.length > 0) {
    line("iterations", `${result.iterations.length} (${result.path})`);
    for (const iteration of result.iterations) more(iterationText(iteration, clip));
  }

  line("tool calls", result.toolCalls.length === 0 ? "none" : String(result.toolCalls.length));
  for (const call of result.toolCalls) {
    more(toolCallLine(call, clip));
    const notes = [
      call.renamed.length > 0 ? `renamed ${call.renamed.join(", ")}` : "",
      call.coerced.length > 0 ? `coerced ${call.coerced.join(", ")}` : "",
      call.coercionProblems.length > 0 ? `did not fit the schema: ${call.coercionProblems.join(", ")}` : "",
      call.argsPlanned ? `planned as ${clip(JSON.stringify(call.argsPlanned))}` : "",
    ].filter(Boolean);
    for (const note of notes) more(note, 3);
    if (!call.ok) more(`→ ${clip(call.text)}`, 3);
  }

  line(
    "rescues",
    result.rescues.length === 0
      ? "none"
      : result.rescues
          .map(
            (rescue) =>
              `${rescue.stepId} ${rescue.tool}.${rescue.param} = ${clip(JSON.stringify(rescue.value))} (pattern ${rescue.pattern}, round ${rescue.round})`,
          )
          .join(" · "),
  );
  if (result.fallback.used) {
    line("fallback", `used${result.fallback.reason ? ` after: ${clip(result.fallback.reason)}` : ""}`);
    for (const iteration of result.fallback.iterations) more(iterationText(iteration, clip));
  } else {
    line("fallback", result.config.fallback ? "not needed" : "off");
  }
  const { enabled, blocked } = result.writeGuard;
  line(
    "write guard",
    !enabled
      ? "off"
      : blocked.length === 0
        ? "on, nothing blocked"
        : `on, blocked ${blocked.map((write) => `${write.tool} ${clip(JSON.stringify(write.args))} (${write.stage}; first call #${write.firstCallSeq})`).join(" · ")}`,
  );

  line("answer", `${JSON.stringify(clip(result.answer))} (by ${result.answeredBy})`);
  if (result.error) line("error", `${result.error.stage} ${result.error.code}: ${result.error.message}`);
  const { totalMs, modelMs, toolsMs } = result.timings;
  line("timings", `total ${ms(totalMs)} · model ${ms(modelMs)} · tools ${ms(toolsMs)} (wall clock)`);

  line("model calls", result.modelCalls.length === 0 ? "none" : String(result.modelCalls.length));
  for (const call of result.modelCalls) {
    more(modelCallText(call, options.simulated));
    if (options.verbose) {
      more("prompt:", 3);
      for (const promptLine of promptText(call).split("\n")) verbatim(`  ${promptLine}`);
      more("output:", 3);
      for (const outputLine of call.output.split("\n")) verbatim(`  ${outputLine}`);
      for (const toolCall of call.toolCalls ?? [])
        more(`  tool call ${toolCall.name} ${JSON.stringify(toolCall.arguments)}`, 3);
    }
  }
  if (options.score) scoreLines(options.score, line, more);
  return `${out.join("\n")}\n`;
}

function configText(result: AgentResult): string {
  const { strategy, filter, skills, rescue, fallback, writeGuard, routingLlm } = result.config;
  const onOff = (on: boolean) => (on ? "on" : "off");
  return [
    `strategy ${strategy}`,
    `filter ${filter}`,
    `skills ${onOff(skills)}`,
    `rescue ${rescue}`,
    `fallback ${onOff(fallback)}`,
    `write guard ${writeGuard}`,
    `routing llm ${onOff(routingLlm)}`,
    ...pipelineText(result.config),
  ].join(" · ");
}

/** The other OnsetLab axes, as models.yaml names their values. */
function pipelineText(config: AgentResult["config"]): string[] {
  return [
    `router ${config.router}/${config.relevance}`,
    `ranking ${config.ranking}`,
    `retrieval ${config.toolTerms}${config.rankClauses ? "+clauses" : ""}${config.workflows ? "+workflows" : ""}${config.toolSelection === "model" ? "+model" : ""}`,
    `parser ${config.parser}`,
    `plan ${config.planSteps}/${config.planExamples}`,
    `field refs ${config.fieldRefs ? "on" : "off"}`,
    `validation ${config.validation}`,
    `fallback ${config.fallbackTrigger}×${config.fallbackIterations}`,
    `react ${config.reactProtocol}/${config.reactEnding}`,
    `builtins ${config.builtins}`,
    `solver data ${config.solverData}`,
    `skills in react ${config.skillsInReact ? "on" : "off"}`,
    `history ${config.history}${config.historyFilter ? "+filter" : ""}${config.historyCompact ? "+compact" : ""}`,
  ];
}

function toolsText(result: AgentResult, top: number): string {
  const { available, filtered, scores } = result.tools;
  const score = new Map(scores.map((entry) => [entry.name, entry.score]));
  const shown = filtered
    .slice(0, top)
    .map((name) => `${name} ${round(score.get(name) ?? 0)}`)
    .join(" · ");
  const rest = filtered.length > top ? ` · +${filtered.length - top} more` : "";
  return `${filtered.length} of ${available.length} shown to the model${shown ? `: ${shown}${rest}` : ""}`;
}

function stepText(step: PlanStep, clip: (text: string) => string): string {
  const depends = step.dependsOn.length > 0 ? ` (uses ${step.dependsOn.join(", ")})` : "";
  const verdict = step.error ? `✗ ${step.error}` : "✓";
  return `${step.id} ${step.tool} ${clip(JSON.stringify(step.args))}${depends}  ${verdict}`;
}

function iterationText(iteration: AgentResult["iterations"][number], clip: (text: string) => string): string {
  const parts = [`${iteration.index}.`];
  if (iteration.action) parts.push(`${iteration.action} ${clip(JSON.stringify(iteration.input ?? {}))}`);
  if (iteration.parseError) parts.push(`unreadable: ${iteration.parseError}`);
  if (iteration.final !== undefined) parts.push(`final: ${clip(JSON.stringify(iteration.final))}`);
  if (iteration.observation !== undefined) parts.push(`→ ${clip(iteration.observation)}`);
  if (iteration.note) parts.push(`(${iteration.note})`);
  return parts.join(" ");
}

function toolCallLine(call: ToolCallRecord, clip: (text: string) => string): string {
  const where = [call.stage, call.stepId, call.round === undefined ? "" : `r${call.round}`].filter(Boolean).join(" ");
  const outcome = call.blocked
    ? "BLOCKED by the write guard"
    : call.ok
      ? "ok"
      : `error${call.error ? ` (${call.error.kind})` : ""}`;
  const attempts =
    call.attempts.length > 1 ? ` · ${call.attempts.length} attempts: ${call.attempts.map(attemptText).join(", ")}` : "";
  return `#${call.seq} ${where} ${call.tool} ${clip(JSON.stringify(call.args))} → ${outcome}${attempts} · ${ms(call.durationMs)}`;
}

function attemptText(attempt: ToolCallRecord["attempts"][number]): string {
  return `${attempt.outcome}${attempt.restartedServer ? " (server restarted, state reset)" : ""}`;
}

function modelCallText(call: ModelCallRecord, simulated: boolean): string {
  const tokens = call.usage ? `${call.usage.promptTokens}→${call.usage.completionTokens} tokens` : "no usage";
  const reported = call.timings ? ` (${simulated ? "simulated" : "reported"} ${ms(call.timings.totalMs)})` : "";
  const tools = call.tools ? ` · ${call.tools.length} tools offered` : "";
  const failed = call.error ? ` · FAILED: ${call.error}` : "";
  const counted =
    call.context?.counted !== undefined
      ? ` (the server's tokenizer counted ${call.context.counted})`
      : call.context?.uncounted !== undefined
        ? ` (estimated: ${call.context.uncounted})`
        : "";
  const window = call.context?.window === undefined ? "" : ` · window ${call.context.window}${counted}`;
  const invalid = call.invalid ? ` · INVALID: ${call.invalid}` : "";
  const cached = call.cached ? " · from the request cache (times of the original call)" : "";
  const server = call.servedBy ? ` · served by ${call.servedBy}` : "";
  return `#${call.seq} ${call.stage} ${call.kind} · ${tokens}${window} · ${ms(call.durationMs)}${reported}${tools}${failed}${invalid}${cached}${server}`;
}

function promptText(call: ModelCallRecord): string {
  if (call.prompt !== undefined) return call.prompt;
  return (call.messages ?? []).map((message) => `[${message.role}] ${message.content}`).join("\n");
}

function scoreLines(
  score: ItemScore,
  line: (label: string, text: string) => void,
  more: (text: string, depth?: number) => void,
): void {
  const verdict = score.invalid
    ? `! invalid (${score.invalid}): not scored, left out of every rate`
    : score.taskSuccess
      ? "✓ task success"
      : `✗ task failed: ${score.failures.join(", ")}`;
  const recovered = score.recovered.length > 0 ? ` (recovered: ${score.recovered.join(", ")})` : "";
  line("score", `${verdict}${recovered} — as the bench scores item ${score.itemId} (${score.category})`);
  more(
    `requirements: ${score.requirements.map((requirement) => `${requirement.name} ${mark(requirement.ok)}`).join(" · ")}`,
  );
  const { expected, called } = score.toolChoice;
  if (expected.length > 0 || called.length > 0) {
    more(`tools expected ${expected.join(", ") || "none"} · called ${called.join(", ") || "none"}`);
  }
  for (const check of score.state?.checks ?? []) {
    more(`state ${mark(check.ok)} ${check.negate ? "not " : ""}${check.expect} on ${check.server}: ${check.detail}`);
  }
  if (score.answer && !score.answer.ok) more(`answer ✗ ${score.answer.failed.join(" · ")}`);
}

function mark(ok: boolean): string {
  return ok ? "✓" : "✗";
}

function clipText(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

function round(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(1)} ms`;
}
