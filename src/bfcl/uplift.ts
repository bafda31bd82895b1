/**
 * Replays every recorded output of a model through the OnsetLab pipeline (ReWOO, all tools, rescue
 * on, fallback off) with the bfcl-replay provider and a per-question MCP server, and scores the calls
 * with the BFCL checker at each checkpoint of the pipeline:
 *
 *   recorded   the output as BFCL decodes it (the strict, BFCL-equivalent verdict)
 *   parsed     the steps the agent's plan parser read from it
 *   validated  the steps the executor ran (steps that failed validation are not sent)
 *   prepared   those calls as sent: keys renamed to the schema's spelling, values coerced
 *   final      the calls as finally sent, after rescue re-ran the steps it could patch
 *
 * Each stage between two checkpoints can fix a failure or break a pass; both are kept per entry, so a
 * report can say which stage did what. Only renaming + coercion and rescue are repairs; the parser
 * and validation change verdicts too, and are reported as what they are.
 */

import { runAgent } from "../agent/agent.ts";
import { parsePlan } from "../agent/plan-parser.ts";
import { PLAN_PREFIX } from "../agent/planner.ts";
import type { AgentConfigInput, AgentResult, ToolCallRecord } from "../agent/types.ts";
import { type DecodedCall, decodeOutput } from "../python/decode-output.ts";
import { fromJson } from "../python/value.ts";
import type { ToolDefinition } from "../tool-protocol/types.ts";
import { checkEntry } from "./checker.ts";
import type { RecordedResult } from "./data.ts";
import { BfclInputError, BfclUpliftError } from "./errors.ts";
import { type BfclHost, openBfclHost } from "./host.ts";
import { bfclQuestionToItem } from "./import.ts";
import { BfclReplayProvider, outputText, recordingsOf } from "./replay-provider.ts";
import { type CategoryInput, loadCategoryInputs } from "./score-dir.ts";
import type { BfclVerdict } from "./types.ts";

/** The configuration replayed: the ReWOO path with its deterministic repairs, no second model call. */
export const UPLIFT_CONFIG: AgentConfigInput = {
  strategy: "rewoo",
  filter: "all",
  skills: true,
  rescue: true,
  fallback: false,
};

export const CHECKPOINTS = ["recorded", "parsed", "validated", "prepared", "final"] as const;
export type Checkpoint = (typeof CHECKPOINTS)[number];

/** The stage between a checkpoint and the one before it; `repair` marks the deterministic repairs. */
export const STAGES = [
  { key: "parser", name: "plan parser", to: "parsed", repair: false },
  { key: "validation", name: "step validation", to: "validated", repair: false },
  { key: "preparation", name: "renaming + coercion", to: "prepared", repair: true },
  { key: "rescue", name: "rescue", to: "final", repair: true },
] as const;
export type StageKey = (typeof STAGES)[number]["key"];

export interface SentCall {
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

export interface UpliftEntry {
  readonly id: string;
  readonly category: string;
  /** The recorded output, verbatim. */
  readonly output: string;
  readonly verdicts: Readonly<Record<Checkpoint, BfclVerdict>>;
  /** The calls as finally sent. */
  readonly sent: readonly SentCall[];
  /** What the repairs did: `renamed a→b`, `coerced x: string→number`, `rescued p=v (pattern)`. */
  readonly repairs: readonly string[];
  /** Calls BFCL decoded (null: undecodable), the plan parser read, and finally sent. */
  readonly callCounts: { readonly recorded: number | null; readonly parsed: number; readonly final: number };
}

export interface CategoryUplift {
  readonly category: string;
  readonly entries: readonly UpliftEntry[];
  /** BFCL's own count of correct entries, when its score file was found. */
  readonly bfclCorrect?: number;
}

export interface ModelUplift {
  readonly model: string;
  readonly categories: readonly CategoryUplift[];
}

export interface UpliftOptions {
  readonly dataDir: string;
  /** Questions replayed at once (default 8). */
  readonly concurrency?: number;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface ModelResults {
  readonly model: string;
  /** A folder of BFCL_v3_<category>_result.json files. */
  readonly resultDir: string;
}

interface ModelRun {
  readonly model: string;
  readonly provider: BfclReplayProvider;
  readonly inputs: readonly CategoryInput[];
}

/**
 * Replays every model's recorded outputs. Each question gets one server, shared by the models that
 * answered it (opening a server is most of the cost; the echo server keeps no state between calls).
 */
export async function runUplift(models: readonly ModelResults[], options: UpliftOptions): Promise<ModelUplift[]> {
  const names = models.map((m) => m.model);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) {
    throw new BfclInputError("BFCL_DUPLICATE_MODEL", `two result folders are both named ${twice}: rename one`, {
      context: { model: twice, dirs: models.filter((m) => m.model === twice).map((m) => m.resultDir) },
    });
  }
  const runs: ModelRun[] = models.map(({ model, resultDir }) => {
    const inputs = loadCategoryInputs(resultDir, { dataDir: options.dataDir });
    return { model, inputs, provider: new BfclReplayProvider(inputs.flatMap(recordingsOf), model) };
  });
  // question key → the models' recorded results for it
  const questions = new Map<
    string,
    { category: string; id: string; answers: { run: ModelRun; input: CategoryInput; result: RecordedResult }[] }
  >();
  for (const run of runs) {
    for (const input of run.inputs) {
      for (const result of input.results) {
        const key = `${input.category}\u0000${result.id}`;
        const question = questions.get(key) ?? { category: input.category, id: result.id, answers: [] };
        question.answers.push({ run, input, result });
        questions.set(key, question);
      }
    }
  }
  const entries = new Map<string, UpliftEntry>();
  let done = 0;
  await mapConcurrently([...questions.values()], options.concurrency ?? 8, async (question) => {
    const first = question.answers[0]!.input;
    const item = bfclQuestionToItem(
      question.category,
      first.questions.get(question.id)!,
      first.answers.get(question.id) ?? [],
    );
    const host = await openBfclHost(item, { dataDir: options.dataDir });
    try {
      for (const { run, input, result } of question.answers) {
        entries.set(
          `${run.model}\u0000${question.category}\u0000${result.id}`,
          await replayEntry(input, result, run.provider, host),
        );
      }
    } finally {
      await host.close();
    }
    options.onProgress?.(++done, questions.size);
  });
  return runs.map((run) => ({
    model: run.model,
    categories: run.inputs.map((input) => ({
      category: input.category,
      entries: input.results.map((r) => entries.get(`${run.model}\u0000${input.category}\u0000${r.id}`)!),
      ...(input.score ? { bfclCorrect: input.score.correctCount } : {}),
    })),
  }));
}

async function replayEntry(
  input: CategoryInput,
  result: RecordedResult,
  provider: BfclReplayProvider,
  host: BfclHost,
): Promise<UpliftEntry> {
  const question = input.questions.get(result.id)!;
  const expected = input.answers.get(result.id) ?? [];
  const item = bfclQuestionToItem(input.category, question, expected);
  const tools = host.listTools();
  const run = await runAgent(item.query, { model: provider, tools: host, config: UPLIFT_CONFIG });
  if (run.error || !run.plan) {
    throw new BfclUpliftError(
      "BFCL_UPLIFT_RUN_FAILED",
      `${result.id}: the pipeline did not run to the end: ${run.error?.message ?? "no plan was made"}`,
      { context: { id: result.id, error: run.error } },
    );
  }
  const score = (calls: readonly SentCall[]) =>
    checkEntry(input.category, question.function, { ok: true, calls: calls.map(toDecoded), format: "json" }, expected);
  const checkpoints = callsAtCheckpoints(run, tools);
  const decoded = decodeOutput(result.result);
  return {
    id: result.id,
    category: input.category,
    output: outputText(result),
    verdicts: {
      recorded: checkEntry(input.category, question.function, decoded, expected),
      parsed: score(checkpoints.parsed),
      validated: score(checkpoints.validated),
      prepared: score(checkpoints.prepared),
      final: score(checkpoints.final),
    },
    sent: checkpoints.final,
    repairs: repairsOf(run),
    callCounts: {
      recorded: decoded.ok ? decoded.calls.length : null,
      parsed: checkpoints.parsed.length,
      final: checkpoints.final.length,
    },
  };
}

/** The calls at each pipeline checkpoint after `recorded`, read from the run's trace. */
function callsAtCheckpoints(
  run: AgentResult,
  tools: readonly ToolDefinition[],
): Record<Exclude<Checkpoint, "recorded">, SentCall[]> {
  // The trace keeps the plan as last executed (patched by rescue); the first parse is re-done here.
  const parsed = parsePlan(`${PLAN_PREFIX}${run.plan!.raw}`, tools).steps.map((s) => ({ tool: s.tool, args: s.args }));
  const executed = run.toolCalls.filter((call) => call.stage === "executor" && !call.blocked);
  const firstRound = executed.filter((call) => call.round === 0);
  // The final call of each step: its round-1 call after a rescue, else its round-0 call.
  const lastByStep = new Map<string, ToolCallRecord>();
  for (const call of executed) lastByStep.set(call.stepId ?? `#seq${call.seq}`, call);
  return {
    parsed,
    validated: firstRound.map((call) => ({ tool: call.tool, args: call.argsPlanned ?? call.args })),
    prepared: firstRound.map(sentCall),
    final: [...lastByStep.values()].map(sentCall),
  };
}

function sentCall(call: ToolCallRecord): SentCall {
  return { tool: call.tool, args: call.args };
}

/** JSON arguments → the checker's values: an integral number reads as an int, as it would from JSON. */
function toDecoded(call: SentCall): DecodedCall {
  return { name: call.tool, args: new Map(Object.entries(call.args).map(([k, v]) => [k, fromJson(v)])) };
}

function repairsOf(run: AgentResult): string[] {
  const executed = run.toolCalls.filter((call) => call.stage === "executor");
  return [
    ...executed.flatMap((call) => call.renamed.map((r) => `${call.stepId ?? call.tool}: renamed ${r}`)),
    ...executed.flatMap((call) => call.coerced.map((c) => `${call.stepId ?? call.tool}: coerced ${c}`)),
    ...run.rescues.map((r) => `${r.stepId}: rescued ${r.param}=${JSON.stringify(r.value)} (${r.pattern})`),
  ];
}

/** Maps `items` with at most `limit` promises in flight; results keep the input order. */
async function mapConcurrently<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
