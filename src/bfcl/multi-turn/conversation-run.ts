/**
 * One multi-turn entry through the conversation runner (src/bench/conversation): its environments as
 * an in-process MCP server behind the project's client pool, the tools of each turn (the excluded
 * functions never, miss_func's held-back ones from their turn), and each turn scored by BFCL's checker
 * as it ends (checker.ts `TurnByTurnCheck`, on the calls that reached the environments).
 *
 * The server serves every function the entry ever offers; the turn's view of the pool hides the
 * held-back ones until their turn (the pool lists a server's tools once, at connect).
 */

import { MAX_CALLS_PER_TURN } from "../../agent/tool-runner.ts";
import type { AgentConfig, AgentResult } from "../../agent/types.ts";
import type { ConversationItem } from "../../bench/dataset/types.ts";
import { turnAsItem } from "../../bench/dataset/types.ts";
import { type Rate, rate } from "../../bench/scoring/rate.ts";
import { scoreItem } from "../../bench/scoring/score-item.ts";
import type { FailureKind, ItemScore } from "../../bench/scoring/score-types.ts";
import { RestrictedToolHost } from "../../mcp/restricted-host.ts";
import type { SimGoldItem } from "../../models/sim/gold.ts";
import type { ToolDefinition, ToolHost } from "../../tool-protocol/types.ts";
import { BfclInputError } from "../errors.ts";
import { type BfclHost, openServerHost } from "../host.ts";
import { DEFAULT_BFCL_V4_DATA_DIR } from "../paths.ts";
import type { BfclFunctionDoc } from "../types.ts";
import { type MultiTurnErrorType, TurnByTurnCheck, type TurnFailure } from "./checker.ts";
import { loadMultiTurnConversations, type MultiTurnConversation, multiTurnGold } from "./conversation.ts";
import { MULTI_TURN_CATEGORIES, type MultiTurnCategory } from "./entries.ts";
import { callText, createEnvironmentServer, offeredFunctions } from "./server.ts";

/** An entry's BFCL verdict from a conversation run, with the calls made where the ground truth is empty. */
export interface MultiTurnRunVerdict {
  readonly category: MultiTurnCategory;
  readonly valid: boolean;
  readonly errorType?: MultiTurnErrorType;
  readonly errorMessage?: string;
  /** The turn the failing check ran after (0-based). */
  readonly turn?: number;
  readonly details?: readonly string[];
  /** Turns whose ground truth is empty (no check of their own in BFCL's runner). */
  readonly emptyTurns: number;
  /** Of those, the turns where the model made calls anyway, and how many calls. */
  readonly emptyTurnsWithCalls: number;
  readonly callsInEmptyTurns: number;
}

/** What the conversation runner needs from the session (run-conversation.ts ConversationSession). */
export interface MultiTurnSession {
  /** The current turn's tools (set by beforeTurn). */
  tools: ToolHost;
  runStateChecks(): Promise<never[]>;
  beforeTurn(index: number): void;
}

export interface MultiTurnTurnInput {
  conversation: ConversationItem;
  index: number;
  trace: AgentResult;
  tools: readonly ToolDefinition[];
}

export class MultiTurnRun {
  private readonly check: TurnByTurnCheck;
  private failure: TurnFailure | undefined;
  private emptyTurnsWithCalls = 0;
  private readonly docs: Map<string, BfclFunctionDoc>;
  readonly session: MultiTurnSession;

  private constructor(
    private readonly item: MultiTurnConversation,
    private readonly host: BfclHost,
    private readonly dataDir: string,
  ) {
    this.check = new TurnByTurnCheck(item.entry);
    this.docs = new Map(offeredFunctions(item.entry, item.entry.turns.length, dataDir).map((doc) => [doc.name, doc]));
    this.session = {
      tools: this.turnView(0),
      runStateChecks: async () => [],
      beforeTurn: (index) => {
        this.session.tools = this.turnView(index);
      },
    };
  }

  static async open(item: MultiTurnConversation, dataDir = DEFAULT_BFCL_V4_DATA_DIR): Promise<MultiTurnRun> {
    const host = await openServerHost(() => {
      const environment = createEnvironmentServer(item.entry, dataDir);
      environment.offerTurn(item.entry.turns.length);
      return environment.server;
    });
    return new MultiTurnRun(item, host, dataDir);
  }

  private turnView(turn: number): ToolHost {
    return RestrictedToolHost.ofTools(
      this.host,
      offeredFunctions(this.item.entry, turn, this.dataDir).map((doc) => doc.name),
    );
  }

  /** The conversation runner's `scoreTurn`: the bench's figures for the turn, its verdict BFCL's checker's. */
  scoreTurn(input: MultiTurnTurnInput): ItemScore {
    const truth = this.item.truth[input.index] ?? [];
    // what reached the environments: not a call the write guard blocked, nor one to a tool not offered
    const offered = new Set(input.tools.map((tool) => tool.name));
    const steps = input.trace.toolCalls
      .filter((call) => !call.blocked && offered.has(call.tool))
      .map((call) => [callText(call.tool, call.args, this.docs.get(call.tool))]);
    if (truth.length === 0 && steps.length > 0) this.emptyTurnsWithCalls++;
    const failure = this.check.turn(input.index, truth, steps);
    this.failure ??= failure;
    const base = scoreItem({
      item: turnAsItem(input.conversation, input.index),
      trace: input.trace,
      stateChecks: [],
      tools: input.tools,
    });
    return { ...base, taskSuccess: failure === undefined, failures: failure ? [failureKind(failure)] : [] };
  }

  /** The entry's verdict after `turnsRun` turns (fewer than the entry has: BFCL's force-terminated). */
  verdict(turnsRun: number): MultiTurnRunVerdict {
    const emptyTurns = this.item.truth.filter((calls) => calls.length === 0).length;
    const figures = {
      category: this.item.category,
      emptyTurns,
      emptyTurnsWithCalls: this.emptyTurnsWithCalls,
      callsInEmptyTurns: this.check.callsInEmptyTurns,
    };
    if (this.failure) return { valid: false, ...figures, ...this.failure };
    if (turnsRun < this.item.truth.length)
      return {
        valid: false,
        errorType: "multi_turn:force_terminated",
        errorMessage: `The run ended after ${turnsRun} of ${this.item.truth.length} turns.`,
        ...figures,
      };
    return { valid: true, ...figures };
  }

  close(): Promise<void> {
    return this.host.close();
  }
}

function failureKind(failure: TurnFailure): FailureKind {
  if (failure.errorType === "multi_turn:instance_state_mismatch") return "state_mismatch";
  return "missing_call";
}

/** The entries of some multi-turn categories as the bench runs them (src/bench/run: one task per entry). */
export class MultiTurnDataset {
  private readonly byId: ReadonlyMap<string, MultiTurnConversation>;
  readonly conversations: ConversationItem[];

  constructor(
    categories: readonly MultiTurnCategory[],
    private readonly dataDir = DEFAULT_BFCL_V4_DATA_DIR,
  ) {
    const items = loadMultiTurnConversations(categories, dataDir);
    this.byId = new Map(items.map((item) => [item.entry.id, item]));
    this.conversations = items.map((item) => item.conversation);
  }

  /**
   * The simulator's gold for one entry: its own turns only, since BFCL's categories share turn texts
   * with other ground truth (miss_func's fixed prompt; base questions again in long_context).
   */
  goldOf(conversation: ConversationItem): SimGoldItem[] {
    return multiTurnGold(this.itemOf(conversation));
  }

  /** A fresh run of one entry: its environments from the initial_config, its checker. */
  open(conversation: ConversationItem): Promise<MultiTurnRun> {
    return MultiTurnRun.open(this.itemOf(conversation), this.dataDir);
  }

  private itemOf(conversation: ConversationItem): MultiTurnConversation {
    const item = this.byId.get(conversation.id);
    if (!item)
      throw new BfclInputError("BFCL_UNKNOWN_ID", `no multi-turn entry ${conversation.id}`, {
        context: { id: conversation.id },
      });
    return item;
  }
}

/** A row's BFCL figures: the leaderboard's accuracy, the error types, and the calls in empty turns. */
export interface MultiTurnRow {
  /** Entries that passed every check, of the valid ones (an invalid run counts in no rate). */
  accuracy: Rate;
  /** The same per category (BFCL's multi-turn column is their unweighted mean). */
  byCategory: Partial<Record<MultiTurnCategory, Rate>>;
  /** BFCL's error type → entries (the first failing check of each). */
  errorTypes: Record<string, number>;
  /** Turns whose ground truth is empty, and of them those where the model called anyway. */
  emptyTurns: Rate;
  callsInEmptyTurns: number;
}

export function summariseMultiTurn(verdicts: readonly MultiTurnRunVerdict[]): MultiTurnRow {
  const errorTypes: Record<string, number> = {};
  for (const verdict of verdicts)
    if (verdict.errorType) errorTypes[verdict.errorType] = (errorTypes[verdict.errorType] ?? 0) + 1;
  const byCategory: Partial<Record<MultiTurnCategory, Rate>> = {};
  for (const category of MULTI_TURN_CATEGORIES) {
    const of = verdicts.filter((verdict) => verdict.category === category);
    if (of.length > 0) byCategory[category] = rate(of.filter((verdict) => verdict.valid).length, of.length);
  }
  return {
    accuracy: rate(verdicts.filter((verdict) => verdict.valid).length, verdicts.length),
    byCategory,
    errorTypes,
    emptyTurns: rate(
      verdicts.reduce((sum, verdict) => sum + verdict.emptyTurnsWithCalls, 0),
      verdicts.reduce((sum, verdict) => sum + verdict.emptyTurns, 0),
    ),
    callsInEmptyTurns: verdicts.reduce((sum, verdict) => sum + verdict.callsInEmptyTurns, 0),
  };
}

/** BFCL's MAXIMUM_STEP_LIMIT: the model queries one user turn may take before BFCL moves on. */
export const BFCL_STEP_LIMIT = 20;

/**
 * A configuration's limits raised to BFCL's for one turn (never lowered): 20 steps for the loops that
 * count steps (ReAct, jsonl); the native loop counts calls, so 20 steps of the most calls one step
 * makes (a ground-truth turn holds up to 34 calls).
 */
export function withBfclTurnLimits(config: AgentConfig): AgentConfig {
  const { limits } = config;
  return {
    ...config,
    limits: {
      ...limits,
      reactMaxIterations: Math.max(limits.reactMaxIterations, BFCL_STEP_LIMIT),
      jsonlMaxIterations: Math.max(limits.jsonlMaxIterations, BFCL_STEP_LIMIT),
      nativeMaxCalls: Math.max(limits.nativeMaxCalls, BFCL_STEP_LIMIT * MAX_CALLS_PER_TURN),
    },
  };
}
