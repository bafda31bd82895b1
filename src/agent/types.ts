/**
 * The agent's configuration and the result of one run. `AgentResult` is the whole trace of a query:
 * the scorer and the results store read it, so every field is plain JSON and documented.
 */

import type { ModelStage } from "../models/protocol.ts";
import type {
  CallContext,
  ChatMessage,
  GenerationOptions,
  InvalidReason,
  ModelTimings,
  ModelUsage,
  NativeToolCall,
} from "../models/types.ts";
import type { ToolAttempt, ToolCallError } from "../tool-protocol/types.ts";
import type { AgentDefinition } from "./definition.ts";
import type { DefinitionUse } from "./definition-prompt.ts";
import type { TextCall, TextCallFormat } from "./text-calls.ts";

// ─── configuration ──────────────────────────────────────────────────────────────────────────────

/** `auto` runs the router; the others force one path (DESIGN §3). */
export type Strategy = "auto" | "rewoo" | "react" | "native" | "jsonl";

export interface AgentLimits {
  /** Planner completion budget (DESIGN §2: ≤ 150 tokens). */
  plannerMaxTokens: number;
  solverMaxTokens: number;
  /** Iterations of the ReAct strategy. */
  reactMaxIterations: number;
  /** Tool calls the `native` baseline may make before it is asked for a final answer. */
  nativeMaxCalls: number;
  /** Model turns of the `jsonl` baseline. */
  jsonlMaxIterations: number;
  /** Per-attempt time limit of one tool call. */
  toolTimeoutMs: number;
  /** Time limit of the whole run; when it passes the run stops with `error.stage` set. */
  totalTimeoutMs: number;
  /** Characters of tool data the solver sees, all results together. */
  solverDataChars: number;
  /** Characters of one observation fed back to ReAct / jsonl / native. */
  observationChars: number;
  /** Characters of earlier turns in the `history: results` block (history.ts); the latest turn always stays. */
  historyChars: number;
}

// ─── the OnsetLab axes: how the design document's pipeline (`onsetlab`) and this project's
// (`onsetlab-plus`) differ, one switch per difference. The first value of each is OnsetLab's. ───

/**
 * Router rules: OnsetLab's (meta patterns with `help` anywhere, exploratory only without sequence words,
 * the intent check for every DIRECT when server tools are connected) or this project's.
 */
export type RouterRules = "onsetlab" | "plus";
/** Which tools make a query relevant: OnsetLab's router match (router-onsetlab.ts) or the filter's best score ≥ 3. */
export type Relevance = "onsetlab" | "plus";
/** How the filter scores tools: OnsetLab's tokens, synonyms and 100-character descriptions, or this project's. */
export type Ranking = "onsetlab" | "plus";
/** The text a tool is ranked by: its name and description, or also its schema (parameter names, enum values, kinds of value). */
export type ToolTerms = "description" | "schema";
/** Which tools are shown when there are more than `filter`: the ranking's top N, or a short model call's picks first (selector.ts). */
export type ToolSelection = "ranked" | "model";
/** The plan parser: OnsetLab's line-anchored one (plan-parser-onsetlab.ts) or this project's tolerant one. */
export type PlanParser = "onsetlab" | "tolerant";
/** The planner asks for one tool call (stops at a second step) or for a whole multi-step plan. */
export type PlanSteps = "one" | "many";
/** Planner tool lines: abstract placeholders plus an examples line, or concrete name-based values. */
export type PlanExamples = "placeholders" | "concrete";
/** Required parameters spelled exactly and only basic coercion, or spelling-insensitive with repairs. */
export type Validation = "strict" | "lenient";
/** OnsetLab's rescue (7 kinds, only when every step failed), this project's 15 patterns, or none. */
export type RescueMode = "onsetlab" | "extended" | "off";
/** The ReAct fallback runs when every step failed, or when any step failed. */
export type FallbackTrigger = "all_failed" | "any_failed";
/** ReAct actions as `Action: tool(param="v")`, or `Action:` plus a JSON `Action Input:`. */
export type ReactProtocol = "call" | "json";
/** A ReAct loop without a final answer: a fixed failure message (solver over its successes only), or the solver over everything. */
export type ReactEnding = "failure_message" | "solver";
/** One success per write tool (a repeat gets the cached success), one per identical call (a repeat gets an error), or no guard. */
export type WriteGuardMode = "per_tool" | "per_call" | "off";
/** Built-in tools always shown and only server tools filtered, or ranked with everything. */
export type Builtins = "always" | "ranked";
/** Solver data: raw text capped per result, or a compact rendering sharing one budget. */
export type SolverData = "per_result" | "shared";
/** Earlier turns of a conversation: the last 3 exchanges' text (OnsetLab's playground), or every turn with its calls and results. */
export type HistoryForm = "answers" | "results";
/**
 * How the model's answers are decoded: freely, or constrained to a JSON Schema by the server (Ollama's
 * `format`, an OpenAI-compatible `response_format: json_schema`): the `jsonl` protocol only.
 */
export const DECODINGS = ["free", "constrained"] as const;
export type Decoding = (typeof DECODINGS)[number];

export interface AgentConfig {
  strategy: Strategy;
  /** How many tools the planner and ReAct see (top N by relevance), or all of them. */
  filter: number | "all";
  /** Inject the detected skill's rules into the planner / ReAct prompt. */
  skills: boolean;
  /** ReAct fallback after a ReWOO run that still failed. */
  fallback: boolean;
  /** Ask the model ACTION vs DIRECT when the rules say DIRECT and tools are connected. */
  routingLlm: boolean;
  // The OnsetLab axes (types above; models.yaml documents every value).
  router: RouterRules;
  relevance: Relevance;
  ranking: Ranking;
  /** Tool retrieval (retrieval.ts): what a tool is ranked by, a multi-part request ranked part by part, id finders added. */
  toolTerms: ToolTerms;
  rankClauses: boolean;
  workflows: boolean;
  toolSelection: ToolSelection;
  parser: PlanParser;
  planSteps: PlanSteps;
  planExamples: PlanExamples;
  /** `#E1.items[0].id` field paths in references; off: a reference is the earlier result's whole text. */
  fieldRefs: boolean;
  validation: Validation;
  /** Fill missing required parameters from the query and re-execute the plan. */
  rescue: RescueMode;
  fallbackTrigger: FallbackTrigger;
  /** Iterations of the ReAct fallback after a failed ReWOO run (1–2). */
  fallbackIterations: number;
  reactProtocol: ReactProtocol;
  reactEnding: ReactEnding;
  /** Repeated writes in ReAct (strategy and fallback). */
  writeGuard: WriteGuardMode;
  builtins: Builtins;
  solverData: SolverData;
  /** The skill's rules in the ReAct and fallback prompts too; off (OnsetLab): in the planner's only. */
  skillsInReact: boolean;
  /** What the text prompts show of a conversation's earlier turns (history.ts). */
  history: HistoryForm;
  /** The tool filter also ranks against the latest earlier user turns (history.ts `filterText`). */
  historyFilter: boolean;
  /**
   * `results` form over `historyChars`: the oldest turns become one-line summaries before any is dropped
   * (history.ts). Optional so run files written before this axis still read (as off); a resolved
   * configuration always sets it.
   */
  historyCompact?: boolean;
  /**
   * `native`: tool calls the server left in the answer's text (text-calls.ts) are executed as if it had
   * parsed them (`native-recover`); off: they are recorded and counted, not executed.
   */
  recoverTextCalls: boolean;
  decoding: Decoding;
  limits: AgentLimits;
  /**
   * A user's own prompt (agents/<name>.md, src/agent/definition.ts) in place of the built-in one of the
   * protocol it drives (`strategy` is that protocol): its text, hash and injected files, as measured.
   */
  definition?: AgentDefinition;
}

export interface AgentConfigInput extends Partial<Omit<AgentConfig, "limits" | "rescue" | "writeGuard">> {
  limits?: Partial<AgentLimits>;
  /** `true` / `false` read as `extended` / `off` (the switch before OnsetLab's own rescue was an option). */
  rescue?: RescueMode | boolean;
  /** `true` / `false` read as `per_call` / `off`. */
  writeGuard?: WriteGuardMode | boolean;
}

export const DEFAULT_LIMITS: AgentLimits = {
  plannerMaxTokens: 150,
  solverMaxTokens: 200,
  reactMaxIterations: 5,
  nativeMaxCalls: 6,
  jsonlMaxIterations: 6,
  toolTimeoutMs: 30_000,
  totalTimeoutMs: 120_000,
  solverDataChars: 800,
  observationChars: 800,
  historyChars: 2000,
};

type OnsetlabAxes = Pick<
  AgentConfig,
  | "router"
  | "relevance"
  | "ranking"
  | "toolTerms"
  | "rankClauses"
  | "workflows"
  | "toolSelection"
  | "parser"
  | "planSteps"
  | "planExamples"
  | "fieldRefs"
  | "validation"
  | "rescue"
  | "fallbackTrigger"
  | "fallbackIterations"
  | "reactProtocol"
  | "reactEnding"
  | "writeGuard"
  | "builtins"
  | "solverData"
  | "skillsInReact"
  | "history"
  | "historyFilter"
  | "historyCompact"
>;

/** The design document's pipeline, with the doc-era code's parameters where the document leaves them open. */
export const ONSETLAB_AXES: OnsetlabAxes = {
  router: "onsetlab",
  relevance: "onsetlab",
  ranking: "onsetlab",
  toolTerms: "description",
  rankClauses: false,
  workflows: false,
  toolSelection: "ranked",
  parser: "onsetlab",
  planSteps: "one",
  planExamples: "placeholders",
  fieldRefs: false,
  validation: "strict",
  rescue: "onsetlab",
  fallbackTrigger: "all_failed",
  fallbackIterations: 1,
  reactProtocol: "call",
  reactEnding: "failure_message",
  writeGuard: "per_tool",
  builtins: "always",
  solverData: "per_result",
  skillsInReact: false,
  history: "answers",
  historyFilter: false,
  historyCompact: false,
};

/** This project's pipeline (the built-in default). */
export const PLUS_AXES: OnsetlabAxes = {
  router: "plus",
  relevance: "plus",
  ranking: "plus",
  toolTerms: "schema",
  rankClauses: true,
  workflows: true,
  toolSelection: "model",
  parser: "tolerant",
  planSteps: "many",
  planExamples: "concrete",
  fieldRefs: true,
  validation: "lenient",
  rescue: "extended",
  fallbackTrigger: "any_failed",
  fallbackIterations: 2,
  reactProtocol: "json",
  reactEnding: "solver",
  writeGuard: "per_call",
  builtins: "ranked",
  solverData: "shared",
  skillsInReact: true,
  history: "results",
  historyFilter: true,
  historyCompact: true,
};

export const DEFAULT_AGENT_CONFIG: AgentConfig = {
  strategy: "auto",
  filter: 8,
  skills: true,
  fallback: true,
  routingLlm: true,
  ...PLUS_AXES,
  // this project's axis, left off: on, it measured worse in simulation (sim:slm-3b on the conversations:
  // 379 vs 382 of 500 turns right); the ablation's plus-history-compact row prices it
  historyCompact: false,
  recoverTextCalls: false,
  decoding: "free",
  limits: DEFAULT_LIMITS,
};

/** Built-in defaults under the given values; the result is what a run records as its config. */
export function resolveAgentConfig(input: AgentConfigInput = {}): AgentConfig {
  const { rescue, writeGuard, ...rest } = stripUndefined(input);
  return {
    ...DEFAULT_AGENT_CONFIG,
    ...rest,
    ...(rescue === undefined ? {} : { rescue: typeof rescue === "boolean" ? (rescue ? "extended" : "off") : rescue }),
    ...(writeGuard === undefined
      ? {}
      : { writeGuard: typeof writeGuard === "boolean" ? (writeGuard ? "per_call" : "off") : writeGuard }),
    limits: { ...DEFAULT_LIMITS, ...stripUndefined(input.limits ?? {}) },
    // a definition drives its own protocol
    ...(rest.definition ? { strategy: rest.definition.protocol } : {}),
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}

// ─── plan ───────────────────────────────────────────────────────────────────────────────────────

/** One parsed `#En = tool(…)` line. Arguments keep `#En…` references as strings until execution. */
export interface PlanStep {
  /** `#E1`, `#E2` … */
  id: string;
  tool: string;
  args: Record<string, unknown>;
  /** Step ids this step references, e.g. `["#E1"]`. */
  dependsOn: string[];
  /** The source text the step was parsed from. */
  raw: string;
  /** Set when the step failed validation (unknown tool, missing parameter, bad syntax); it is not executed. */
  error?: string;
  /** Required parameters the step lacks (names from the schema). */
  missing?: string[];
}

export interface ParsedPlan {
  steps: PlanStep[];
  /** What the parser repaired or dropped: duplicates, renumbered ids, unparsable fragments. */
  notes: string[];
}

// ─── trace records ──────────────────────────────────────────────────────────────────────────────

/**
 * One request to the model and what came back, whole: the prompt or the messages exactly as sent (a loop
 * protocol's record repeats the conversation on every turn; the run files are compressed for that).
 */
export interface ModelCallRecord {
  seq: number;
  stage: ModelStage;
  kind: "complete" | "chat";
  /** `complete` requests: the prompt. */
  prompt?: string;
  /** `chat` requests: the messages, a copy taken at the time of the call. */
  messages?: ChatMessage[];
  /** Names of the tools offered to a `chat` request. */
  tools?: string[];
  options?: GenerationOptions;
  /** The answer was constrained to a JSON Schema (`decoding: constrained`). */
  constrained?: true;
  /** Raw model text (empty when it failed), at most MAX_OUTPUT_CHARS (recorder.ts) of it. */
  output: string;
  /** The model wrote more than MAX_OUTPUT_CHARS: `output` and every parser got the first `at` of `of` chars. */
  outputCut?: { at: number; of: number };
  toolCalls?: NativeToolCall[];
  usage?: ModelUsage;
  /** As the provider reported them. */
  timings?: ModelTimings;
  /** Real servers: the window the call ran in and the prompt's estimate (src/models/context.ts). */
  context?: CallContext;
  /** Why this call's answer cannot be scored: the item is then invalid, never wrong. */
  invalid?: InvalidReason;
  /** The server's stop reason (`stop`, `length` …). */
  doneReason?: string;
  /** A thinking model's reasoning: kept for reading, never taken as the answer. */
  thinking?: string;
  /** Real servers: prompt tokens shared with the previous request to the model (its server's prompt cache could serve them). */
  sharedPrefixTokens?: number;
  /** Milliseconds since the run started. */
  startMs: number;
  /** Wall-clock duration measured by the agent; for a cached call, the original call's. */
  durationMs: number;
  /** Answered from the request cache: `usage`, `timings` and `durationMs` are the original call's. */
  cached?: true;
  /** The base URL that answered, when the model has several. */
  servedBy?: string;
  error?: string;
}

/** Which part of the agent made a tool call. */
export type ToolCallStage = "executor" | "react" | "fallback" | "native" | "jsonl";

/** One tool call (or a blocked attempt), with arguments exactly as sent to the ToolHost. */
export interface ToolCallRecord {
  seq: number;
  stage: ToolCallStage;
  /** The plan step it executed (ReWOO). */
  stepId?: string;
  /** 0 for the first execution of a plan, 1 after a rescue. */
  round?: number;
  tool: string;
  /** Arguments before normalisation (references already resolved), when they differ from `args`. */
  argsPlanned?: Record<string, unknown>;
  /** Arguments as sent, after key normalisation and type coercion. */
  args: Record<string, unknown>;
  /** Keys renamed to the schema's spelling, e.g. `issueNumber→issue_number`. */
  renamed: string[];
  /** Values converted by coercion, e.g. `issue_number: string→number`. */
  coerced: string[];
  /** Values that did not fit the schema (sent unchanged; the server decides). */
  coercionProblems: string[];
  ok: boolean;
  /** The result text, or the error text. */
  text: string;
  data?: unknown;
  error?: ToolCallError;
  attempts: ToolAttempt[];
  startMs: number;
  durationMs: number;
  /** The write guard refused the call: it never reached the ToolHost. */
  blocked?: boolean;
  /** A dry run previewed this write instead of making it: `data` is the preview, nothing changed. */
  dryRun?: true;
}

/** A plan step's outcome in one round of execution. */
export interface ExecutedStep {
  id: string;
  tool: string;
  round: number;
  status: "ok" | "error" | "skipped";
  /** `skipped` steps: why (validation error, failed dependency, circular reference). */
  error?: string;
  /** Required parameters reported missing (by validation or by the server). */
  missing?: string[];
  /** The ToolCallRecord.seq of its call, when one was made. */
  callSeq?: number;
  /** Reused from an earlier round instead of being called again. */
  reused?: boolean;
}

export interface RescueRecord {
  stepId: string;
  tool: string;
  param: string;
  value: unknown;
  /** Which extraction pattern produced the value, e.g. `owner-repo`, `method-intent`, `quoted`. */
  pattern: string;
  round: number;
}

export interface BlockedWrite {
  tool: string;
  args: Record<string, unknown>;
  stage: ToolCallStage;
  /** The ToolCallRecord.seq of the earlier successful call of this tool. */
  firstCallSeq: number;
}

export type Route = "DIRECT" | "REWOO" | "REACT";

export interface RouteDecision {
  route: Route;
  /** Which rule decided: `meta`, `no-tools`, `no-relevance`, `exploratory`, `sequence`, `default`, `llm`. */
  rule: string;
  /** The best tool relevance score the rules saw. */
  relevance: number;
  llmAsked: boolean;
  /** ACTION / DIRECT as parsed, or `unclear` when the answer had neither. */
  llmAnswer?: "ACTION" | "DIRECT" | "unclear";
}

export interface SkillChoice {
  name: string;
  score: number;
  /** Detected from the active tool names, or from the query text. */
  source: "tools" | "query";
}

export interface ToolScore {
  name: string;
  score: number;
}

/** One turn of a loop protocol (ReAct, jsonl, native). */
export interface LoopIteration {
  index: number;
  thought?: string;
  action?: string;
  input?: Record<string, unknown>;
  /** What was fed back to the model. */
  observation?: string;
  final?: string;
  /** The output could not be understood; the observation told the model so. */
  parseError?: string;
  /** ToolCallRecord.seq of the call made in this turn. */
  callSeqs?: number[];
  /** On a turn's last call: the calls past MAX_CALLS_PER_TURN that were dropped, not made. */
  note?: string;
}

/** Tool calls one answer held as text (a `native` answer without `tool_calls`). */
export interface ToolCallsAsText {
  /** ModelCallRecord.seq of the answer. */
  modelCallSeq: number;
  /** Which format was recognised (text-calls.ts). */
  format: TextCallFormat;
  /** The answer's text as the server returned it. */
  raw: string;
  /** The calls to offered tools found in it. */
  calls: TextCall[];
  /** `recoverTextCalls`: the calls were executed as if the server had parsed them. */
  executed: boolean;
}

/** Where a run ended up in error. `aborted` covers the caller's signal and the total time limit. */
export type AgentStage =
  | "router"
  | "select"
  | "planner"
  | "executor"
  | "rescue"
  | "fallback"
  | "react"
  | "solver"
  | "direct"
  | "native"
  | "jsonl";

export interface AgentRunError {
  stage: AgentStage;
  code: string;
  message: string;
}

export interface AgentTimings {
  totalMs: number;
  /** Wall-clock time with a model call in flight. */
  modelMs: number;
  /** Wall-clock time with at least one tool call in flight (concurrent calls are not double-counted). */
  toolsMs: number;
}

/** The whole trace of one query through one configuration. Never thrown away, never partial JSON. */
export interface AgentResult {
  query: string;
  /** The resolved configuration the run used. */
  config: AgentConfig;
  /** The path actually taken (`none`: the run stopped before the router decided). */
  path: "none" | "direct" | "rewoo" | "react" | "native" | "jsonl";
  /** Present when the router ran (strategy `auto`). */
  route?: RouteDecision;
  skill: SkillChoice | null;
  tools: {
    /** Every connected tool (the executor's view). */
    available: string[];
    /** What the planner / ReAct saw, in rank order. */
    filtered: string[];
    /**
     * The filter's ranking of every connected tool (with `builtins: always`, every server tool), best
     * first; empty when no ranking was made (native, jsonl).
     */
    scores: ToolScore[];
    /** The filter left tools out without a score to tell them apart (filter.ts `blind`). */
    blind?: true;
    /** `tool_selection: model`: the tools the selector call named (known names, shown first); absent without the call. */
    selected?: string[];
  };
  /**
   * ReWOO only. `steps` as last executed (after a rescue, the patched steps); `waves` the step ids run
   * together in the last round; `raw` the planner's output as the model wrote it.
   */
  plan?: { raw: string; steps: PlanStep[]; notes: string[]; waves: string[][] };
  /** Every model request, in order. */
  modelCalls: ModelCallRecord[];
  /** ReWOO plan steps, per round. */
  steps: ExecutedStep[];
  /** Every tool call and blocked attempt, in order. */
  toolCalls: ToolCallRecord[];
  rescues: RescueRecord[];
  fallback: { used: boolean; reason?: string; iterations: LoopIteration[] };
  /** ReAct / jsonl / native turns of the main strategy. */
  iterations: LoopIteration[];
  /** `native`: answers whose tool calls came back as text, not parsed by the server (absent: none did). */
  toolCallsAsText?: ToolCallsAsText[];
  writeGuard: { enabled: boolean; blocked: BlockedWrite[] };
  answer: string;
  /** Which stage produced the answer. */
  answeredBy: "direct" | "solver" | "react" | "fallback" | "native" | "jsonl" | "none";
  /** The stage that failed (model error, time limit); the answer may still be partial. */
  error?: AgentRunError;
  /** With an agent definition: its name and hash, and what its filled-in prompt held (the files' share). */
  definition?: DefinitionUse;
  timings: AgentTimings;
}
