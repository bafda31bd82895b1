/**
 * One query through one configuration (DESIGN §2): router → DIRECT / ReWOO (skills, filter, planner,
 * executor, rescue, ReAct fallback, solver) / ReAct, or a baseline (native, jsonl). Returns the whole
 * trace and never throws for model or tool failures — only for programming errors.
 */

import { startDeadline } from "../abort.ts";
import { RestrictedToolHost } from "../mcp/restricted-host.ts";
import type { ModelProvider } from "../models/types.ts";
import type { ToolDefinition, ToolHost } from "../tool-protocol/types.ts";
import { TemplateError } from "./definition.ts";
import { definitionPrompt } from "./definition-prompt.ts";
import { ModelCallError, RunAbortedError } from "./errors.ts";
import { type AgentEventListener, safeListener } from "./events.ts";
import { executePlan, type StepOutcome } from "./executor.ts";
import {
  type ConversationTurn,
  filterText,
  historyText,
  jsonlHistoryMessages,
  nativeHistoryMessages,
  reactHistoryText,
} from "./history.ts";
import { runJsonlLoop } from "./jsonl.ts";
import { runNativeLoop } from "./native.ts";
import { buildPlannerPrompt, plannerOptions } from "./planner.ts";
import { type ReactLoopInput, type ReactLoopOutput, runReactLoop } from "./react-loop.ts";
import { RunRecorder } from "./recorder.ts";
import { applyRouterAnswer, buildRouterPrompt, parseRouterAnswer } from "./router.ts";
import { parseSelectorAnswer, selectorRequest } from "./selector.ts";
import { SKILLS, type Skill } from "./skills/catalog.ts";
import { detectSkill, skillRulesText } from "./skills/detect.ts";
import { buildSolverPrompt, cleanAnswer, type Evidence, solverOptions } from "./solver.ts";
import {
  applySelection,
  asksIntentCheck,
  parsePlannerOutput,
  rescueFailedPlan,
  ruleRoute,
  selectionCandidates,
  shownTools,
} from "./stage-decisions.ts";
import { truncate } from "./text.ts";
import { ToolRunner } from "./tool-runner.ts";
import {
  type AgentConfig,
  type AgentConfigInput,
  type AgentResult,
  type ExecutedStep,
  type FallbackTrigger,
  type PlanStep,
  resolveAgentConfig,
} from "./types.ts";
import { WriteGuard } from "./write-guard.ts";

export interface RunAgentOptions {
  /** Partial settings over the built-in defaults (or a resolved AgentConfig). */
  config?: AgentConfigInput;
  model: ModelProvider;
  tools: ToolHost;
  signal?: AbortSignal;
  /** Extra facts for the planner prompt (e.g. today's date). */
  context?: string;
  /**
   * The conversation's earlier turns, oldest first (history.ts `turnFromResult` builds one from a run's
   * result). Each configuration shows them as its prompt or API expects; without it the query stands alone.
   */
  history?: readonly ConversationTurn[];
  /** Prompt rules for APIs of your own servers, considered beside the built-in ones (skills/catalog.ts). */
  skills?: readonly Skill[];
  /** Stage events as they happen (events.ts), e.g. for a live view; the trace is the same without it. */
  onEvent?: AgentEventListener;
}

/** Everything the stages of one run share. */
interface Run {
  query: string;
  config: AgentConfig;
  context?: string;
  history: readonly ConversationTurn[];
  /** The earlier turns as the text prompts show them (config `history`); undefined without history. */
  historyText?: string;
  skills: readonly Skill[];
  allTools: readonly ToolDefinition[];
  recorder: RunRecorder;
  runner: ToolRunner;
  result: AgentResult;
}

/** Visible tools and skill rules for the planner / ReAct. */
interface Prepared {
  visible: ToolDefinition[];
  skillRules?: string;
}

export async function runAgent(query: string, options: RunAgentOptions): Promise<AgentResult> {
  const config = resolveAgentConfig(options.config);
  // a definition's `tools:` allow-list: the others are neither shown nor callable
  const allowed = config.definition?.tools;
  const host = allowed ? RestrictedToolHost.ofTools(options.tools, allowed) : options.tools;
  const allTools = host.listTools();
  const deadline = startDeadline(config.limits.totalTimeoutMs, options.signal);
  const recorder = new RunRecorder(
    options.model,
    deadline.signal,
    () =>
      options.signal?.aborted
        ? "aborted by the caller"
        : `total time limit of ${config.limits.totalTimeoutMs} ms exceeded`,
    safeListener(options.onEvent),
  );
  const guard = config.writeGuard === "off" ? null : new WriteGuard(allTools, config.writeGuard);
  const runner = new ToolRunner({
    host,
    tools: allTools,
    recorder,
    guard,
    timeoutMs: config.limits.toolTimeoutMs,
    validation: config.validation,
  });
  const result = emptyResult(query, config, allTools);
  const history = options.history ?? [];
  const shownHistory = historyText(history, config.history, config.limits.historyChars, config.historyCompact);
  const run: Run = {
    query,
    config,
    history,
    ...(shownHistory ? { historyText: shownHistory } : {}),
    skills: options.skills ? [...SKILLS, ...options.skills] : SKILLS,
    allTools,
    recorder,
    runner,
    result,
    ...(options.context ? { context: options.context } : {}),
  };

  try {
    await dispatch(run);
  } catch (error) {
    if (error instanceof TemplateError) {
      result.error = { stage: config.definition?.protocol ?? "native", code: error.code, message: error.message };
    } else if (error instanceof ModelCallError || error instanceof RunAbortedError) {
      result.error = { stage: error.stage, code: error.code, message: error.message };
    } else throw error;
  } finally {
    deadline.dispose();
  }
  result.modelCalls = recorder.modelCalls;
  result.toolCalls = recorder.toolCalls;
  result.writeGuard.blocked = guard?.blocked ?? [];
  result.timings = recorder.timings();
  recorder.emit({
    type: "answer",
    answer: result.answer,
    answeredBy: result.answeredBy,
    ...(result.error ? { error: result.error } : {}),
  });
  return result;
}

async function dispatch(run: Run): Promise<void> {
  switch (run.config.strategy) {
    case "native":
      return runNative(run);
    case "jsonl":
      return runJsonl(run);
    case "react":
      return runReact(run);
    case "rewoo":
      return runRewoo(run);
    case "auto": {
      const route = await decideRoute(run);
      if (route === "DIRECT") return runDirect(run);
      return route === "REACT" ? runReact(run) : runRewoo(run);
    }
  }
}

// ─── router and direct answers ──────────────────────────────────────────────────────────────────

async function decideRoute(run: Run): Promise<"DIRECT" | "REWOO" | "REACT"> {
  const rules = run.config.router;
  let decision = ruleRoute(run.query, run.allTools, run.config);
  if (asksIntentCheck(decision, run.allTools, run.config)) {
    try {
      const response = await run.recorder.complete("router", {
        stage: "router",
        prompt: buildRouterPrompt(run.query, run.allTools, run.historyText),
        options: { temperature: 0, maxTokens: 8 },
      });
      decision = applyRouterAnswer(run.query, decision, parseRouterAnswer(response.text), rules);
    } catch (error) {
      // A failed intent check leaves the rules' decision standing (OnsetLab tries the tools instead);
      // the failed call is in modelCalls.
      if (!(error instanceof ModelCallError)) throw error;
      decision = { ...decision, llmAsked: true, llmAnswer: "unclear" };
      if (rules === "onsetlab") decision = { ...decision, route: "REWOO", rule: "llm" };
    }
  }
  run.result.route = decision;
  run.recorder.emit({ type: "route", decision });
  return decision.route;
}

async function runDirect(run: Run): Promise<void> {
  run.result.path = "direct";
  await solve(run, [], "direct");
}

// ─── ReWOO ──────────────────────────────────────────────────────────────────────────────────────

async function runRewoo(run: Run): Promise<void> {
  const { result, recorder, config } = run;
  result.path = "rewoo";
  const prepared = await prepareTools(run);
  const options = plannerOptions(config.limits.plannerMaxTokens, config.planSteps);
  const response = await recorder.complete("planner", {
    stage: "planner",
    prompt: buildPlannerPrompt({
      query: run.query,
      tools: prepared.visible,
      ...(prepared.skillRules ? { skillRules: prepared.skillRules } : {}),
      ...(run.historyText ? { history: run.historyText } : {}),
      ...(run.context ? { context: run.context } : {}),
      steps: config.planSteps,
      examples: config.planExamples,
      fieldRefs: config.fieldRefs,
    }),
    options,
  });
  // The plan ends at the first stop even when the provider ignored the stop list (or capped it).
  const plan = parsePlannerOutput(response.text, { shown: prepared.visible, all: run.allTools }, config);
  result.plan = { raw: response.text, steps: plan.steps, notes: plan.notes, waves: [] };
  recorder.emit({ type: "plan", raw: response.text, steps: plan.steps, notes: plan.notes });

  let outcomes: StepOutcome[] = [];
  let steps: PlanStep[] = plan.steps;
  if (steps.length > 0) {
    const fieldRefs = config.fieldRefs;
    const onWave = (round: number) => (ids: string[]) => recorder.emit({ type: "wave", round, steps: ids });
    let execution = await executePlan({ steps, runner: run.runner, round: 0, fieldRefs, onWave: onWave(0) });
    result.plan.waves = execution.waves;
    result.steps.push(...execution.outcomes.map(toExecutedStep));
    if (!execution.ok && config.rescue !== "off") {
      const rescueInput = {
        // OnsetLab's rescue read owner/repo from the conversation when the query had none.
        query: run.historyText ? `${run.query}\n${run.historyText}` : run.query,
        steps,
        outcomes: execution.outcomes,
        tools: run.allTools,
        round: 1,
        validation: config.validation,
      };
      const rescue = rescueFailedPlan(rescueInput, config);
      if (rescue.patched.length > 0) {
        result.rescues.push(...rescue.rescues);
        recorder.emit({ type: "rescue", rescues: rescue.rescues });
        steps = rescue.steps;
        result.plan.steps = steps;
        const reuse = new Map(execution.outcomes.filter((o) => o.status === "ok").map((o) => [o.id, o]));
        execution = await executePlan({
          steps,
          runner: run.runner,
          round: 1,
          reuse,
          fieldRefs,
          onWave: onWave(1),
        });
        result.plan.waves = execution.waves;
        result.steps.push(...execution.outcomes.map(toExecutedStep));
      }
    }
    outcomes = execution.outcomes;
  }

  const evidence: Evidence[] = outcomes.map((o) => ({
    source: `${o.id} ${o.tool}`,
    ok: o.status === "ok",
    text: o.text,
    ...(o.status === "ok" && o.value !== undefined ? { data: o.value } : {}),
  }));
  const failure = planFailure(steps, outcomes, response.text, config.fallbackTrigger);
  if (failure && config.fallback) {
    result.fallback.used = true;
    result.fallback.reason = failure.reason;
    recorder.emit({ type: "fallback", reason: failure.reason });
    const loop = await runReactLoop({
      ...loopSettings(run, prepared),
      stage: "fallback",
      maxIterations: config.fallbackIterations,
      errorContext: failure.context,
    });
    result.fallback.iterations = loop.iterations;
    await endLoop(run, loop, "fallback", evidence);
    return;
  }
  await solve(run, evidence, "solver");
}

/** What the ReAct strategy and the fallback share: tools, skill rules, protocol, guard. */
function loopSettings(run: Run, prepared: Prepared): Omit<ReactLoopInput, "stage" | "maxIterations"> {
  return {
    query: run.query,
    visibleTools: prepared.visible,
    allTools: run.allTools,
    observationChars: run.config.limits.observationChars,
    guarded: run.config.writeGuard !== "off",
    protocol: run.config.reactProtocol,
    examples: run.config.planExamples,
    ...(prepared.skillRules && run.config.skillsInReact ? { skillRules: prepared.skillRules } : {}),
    ...(run.historyText ? { history: run.historyText } : {}),
    recorder: run.recorder,
    runner: run.runner,
  };
}

/** The failure answer of `react_ending: failure_message` when the loop ended with nothing done. */
export const LOOP_FAILURE_MESSAGE = "Sorry, I could not complete this request with the tools I have.";

/**
 * A ReAct loop's ending: its Final Answer; else with `solver` the solver over `earlier` evidence and
 * the loop's; with `failure_message` (OnsetLab) the solver over the loop's successes only, or a fixed
 * failure message when none succeeded.
 */
async function endLoop(
  run: Run,
  loop: ReactLoopOutput,
  stage: "react" | "fallback",
  earlier: readonly Evidence[],
): Promise<void> {
  if (loop.final !== undefined) {
    setAnswer(run, cleanAnswer(loop.final), stage);
    return;
  }
  if (run.config.reactEnding === "solver") {
    await solve(run, [...earlier, ...loop.evidence], "solver");
    return;
  }
  const successes = loop.evidence.filter((item) => item.ok);
  if (successes.length > 0) await solve(run, successes, "solver");
  else setAnswer(run, LOOP_FAILURE_MESSAGE, stage);
}

/** Why a ReWOO run needs the fallback, and the context the fallback prompt gets; undefined when it worked. */
function planFailure(
  steps: readonly PlanStep[],
  outcomes: readonly StepOutcome[],
  raw: string,
  trigger: FallbackTrigger,
): { reason: string; context: string } | undefined {
  if (steps.length === 0) {
    return {
      reason: "the planner wrote no step",
      context: `The plan had no valid step. The planner wrote:\n${truncate(raw.trim(), 300)}`,
    };
  }
  const failed = outcomes.filter((outcome) => outcome.status !== "ok");
  // OnsetLab falls back only when the plan failed as a whole; a partial success goes to the solver.
  if (failed.length === 0 || (trigger === "all_failed" && failed.length < outcomes.length)) return undefined;
  const byId = new Map(steps.map((step) => [step.id, step]));
  const lines = outcomes.map((outcome) => {
    const call = byId.get(outcome.id)?.raw ?? outcome.tool;
    const status = outcome.status === "ok" ? `ok: ${truncate(outcome.text, 150)}` : (outcome.error ?? "failed");
    return `${outcome.id} = ${call} -> ${status}`;
  });
  return {
    reason: failed
      .map((outcome) => `${outcome.id} ${outcome.tool}: ${truncate(outcome.error ?? "failed", 120)}`)
      .join("; "),
    context: lines.join("\n"),
  };
}

function toExecutedStep(outcome: StepOutcome): ExecutedStep {
  const { value: _value, text: _text, ...step } = outcome;
  return step;
}

// ─── ReAct and the baselines ────────────────────────────────────────────────────────────────────

async function runReact(run: Run): Promise<void> {
  run.result.path = "react";
  const prepared = await prepareTools(run);
  const instructions = definitionSystemPrompt(run, prepared.visible);
  const loop = await runReactLoop({
    ...loopSettings(run, prepared),
    ...(instructions === undefined ? {} : { instructions }),
    // The ReAct strategy's earlier turns are transcripts in its own format; the fallback keeps the pipeline's block.
    ...(run.history.length > 0 ? { history: reactHistoryText(run.history, run.config.limits.observationChars) } : {}),
    stage: "react",
    maxIterations: run.config.limits.reactMaxIterations,
  });
  run.result.iterations = loop.iterations;
  await endLoop(run, loop, "react", []);
}

async function runNative(run: Run): Promise<void> {
  run.result.path = "native";
  const systemPrompt = definitionSystemPrompt(run, run.allTools);
  const loop = await runNativeLoop({
    ...(systemPrompt === undefined ? {} : { systemPrompt }),
    query: run.query,
    history: nativeHistoryMessages(run.history, run.config.limits.observationChars),
    tools: run.allTools,
    maxCalls: run.config.limits.nativeMaxCalls,
    observationChars: run.config.limits.observationChars,
    recorder: run.recorder,
    runner: run.runner,
    recover: run.config.recoverTextCalls,
  });
  run.result.iterations = loop.iterations;
  if (loop.toolCallsAsText.length > 0) run.result.toolCallsAsText = loop.toolCallsAsText;
  setAnswer(run, loop.final.trim(), "native");
}

async function runJsonl(run: Run): Promise<void> {
  run.result.path = "jsonl";
  const systemPrompt = definitionSystemPrompt(run, run.allTools);
  const loop = await runJsonlLoop({
    ...(systemPrompt === undefined ? {} : { systemPrompt }),
    query: run.query,
    history: jsonlHistoryMessages(run.history, run.config.limits.observationChars),
    tools: run.allTools,
    maxIterations: run.config.limits.jsonlMaxIterations,
    observationChars: run.config.limits.observationChars,
    recorder: run.recorder,
    runner: run.runner,
    constrained: run.config.decoding === "constrained",
  });
  run.result.iterations = loop.iterations;
  if (loop.final !== undefined) {
    setAnswer(run, loop.final.trim(), "jsonl");
    return;
  }
  run.result.error = {
    stage: "jsonl",
    code: "MAX_ITERATIONS",
    message: `no final_answer after ${run.config.limits.jsonlMaxIterations} turns`,
  };
}

/** The agent definition's filled-in prompt (recorded in the result), or undefined for the built-in prompt. */
function definitionSystemPrompt(run: Run, tools: readonly ToolDefinition[]): string | undefined {
  const definition = run.config.definition;
  if (!definition) return undefined;
  const { prompt, use } = definitionPrompt({
    definition,
    tools,
    ...(run.context ? { context: run.context } : {}),
    history: run.history,
    examples: run.config.planExamples,
  });
  run.result.definition = use;
  return prompt;
}

// ─── shared stages ──────────────────────────────────────────────────────────────────────────────

/** Filter (top N of all tools, or of the server tools beside the built-ins) then skill detection over the tools that survived. */
async function prepareTools(run: Run): Promise<Prepared> {
  const ranked = shownTools(filterText(run.query, run.history, run.config.historyFilter), run.allTools, run.config);
  const picks = await selectTools(run);
  const filtered = applySelection(ranked, picks, run.allTools, run.config);
  run.result.tools.filtered = filtered.tools.map((tool) => tool.name);
  run.result.tools.scores = filtered.scores;
  if (filtered.blind) run.result.tools.blind = true;
  run.recorder.emit({
    type: "tools_shown",
    available: run.allTools.length,
    shown: run.result.tools.filtered,
    scores: run.result.tools.scores,
  });
  if (!run.config.skills) return { visible: filtered.tools };
  const detected = detectSkill(run.query, filtered.tools, run.skills);
  run.result.skill = detected?.choice ?? null;
  run.recorder.emit({ type: "skill", skill: run.result.skill });
  return { visible: filtered.tools, ...(detected ? { skillRules: skillRulesText(detected.skill) } : {}) };
}

/**
 * `tool_selection: model`: one short call names the tools the request needs among the candidates;
 * none when nothing would be cut. A failed call leaves the ranking's choice (the call is in modelCalls).
 */
async function selectTools(run: Run): Promise<string[]> {
  const candidates = selectionCandidates(run.allTools, run.config);
  if (candidates.length === 0 || run.config.filter === "all") return [];
  const limit = run.config.filter;
  try {
    const response = await run.recorder.complete(
      "select",
      selectorRequest({
        query: run.query,
        tools: candidates,
        limit,
        ...(run.historyText ? { history: run.historyText } : {}),
      }),
    );
    const picks = parseSelectorAnswer(response.text, candidates, limit);
    run.result.tools.selected = picks;
    return picks;
  } catch (error) {
    if (!(error instanceof ModelCallError)) throw error;
    return [];
  }
}

async function solve(run: Run, evidence: readonly Evidence[], stage: "solver" | "direct"): Promise<void> {
  const response = await run.recorder.complete(stage, {
    stage: "solver",
    prompt: buildSolverPrompt({
      query: run.query,
      evidence,
      dataChars: run.config.limits.solverDataChars,
      data: run.config.solverData,
      ...(run.historyText ? { history: run.historyText } : {}),
    }),
    options: solverOptions(run.config.limits.solverMaxTokens),
  });
  setAnswer(run, cleanAnswer(response.text), stage);
}

function setAnswer(run: Run, answer: string, by: AgentResult["answeredBy"]): void {
  run.result.answer = answer;
  run.result.answeredBy = by;
}

function emptyResult(query: string, config: AgentConfig, tools: readonly ToolDefinition[]): AgentResult {
  const names = tools.map((tool) => tool.name);
  return {
    query,
    config,
    path: config.strategy === "auto" ? "none" : config.strategy,
    skill: null,
    tools: { available: names, filtered: names, scores: [] },
    modelCalls: [],
    steps: [],
    toolCalls: [],
    rescues: [],
    fallback: { used: false, iterations: [] },
    iterations: [],
    writeGuard: { enabled: config.writeGuard !== "off", blocked: [] },
    answer: "",
    answeredBy: "none",
    timings: { totalMs: 0, modelMs: 0, toolsMs: 0 },
  };
}
