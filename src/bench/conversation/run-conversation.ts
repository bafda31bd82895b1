/**
 * One conversation through one model × configuration: its turns in order on one session of servers
 * (reset before the conversation by whoever opened the session, never between its turns), each turn a
 * `runAgent` call with the turns before it as history. When the agent asks, the scripted user answers
 * once (scripted-user.ts; or a model playing the user, model-user.ts) and the agent runs again on the
 * reply; both runs belong to the turn.
 *
 * Every turn's request repeats the same earlier turns in the same form (agent/history.ts), so a server's
 * prompt cache can serve the shared prefix. Turn checks are pluggable (`scoreTurn`): the default grades
 * a turn as the single-turn item it is (dataset/types.ts `turnAsItem`) with the bench's scorer.
 */

import { runAgent } from "../../agent/agent.ts";
import { type ConversationTurn, turnFromResult } from "../../agent/history.ts";
import type { AgentConfig, AgentResult } from "../../agent/types.ts";
import type { InvalidReason, ModelProvider } from "../../models/types.ts";
import type { ToolDefinition, ToolHost } from "../../tool-protocol/types.ts";
import type { StateOutcome } from "../dataset/state-checks.ts";
import type { ConversationItem, ConversationTurnSpec, StateCheckSpec } from "../dataset/types.ts";
import { turnAsItem } from "../dataset/types.ts";
import { scoreItem } from "../scoring/score-item.ts";
import type { ItemScore } from "../scoring/score-types.ts";
import { SCRIPTED_USER, type UserPlayer } from "./model-user.ts";
import { askedUser } from "./scripted-user.ts";

/** The servers a conversation runs on: its tools, and its state checks after each turn. */
export interface ConversationSession {
  tools: ToolHost;
  runStateChecks(specs: readonly StateCheckSpec[]): Promise<StateOutcome[]>;
  /** Called before each user turn (0-based): a session whose tools change by turn (BFCL miss_func) sets them. */
  beforeTurn?(index: number): void;
}

export interface TurnCheckInput {
  conversation: ConversationItem;
  index: number;
  /** The turn's runs as one trace: every tool call and model call of both runs, the last run's answer. */
  trace: AgentResult;
  state: StateOutcome[];
  tools: readonly ToolDefinition[];
}

export interface RunConversationInput {
  conversation: ConversationItem;
  session: ConversationSession;
  model: ModelProvider;
  config: AgentConfig;
  /** Facts every planner gets (the mock world's date). */
  context?: string;
  signal?: AbortSignal;
  /** Grades one turn's calls, state and answer; default: the single-turn scorer on the turn's item. */
  scoreTurn?: (input: TurnCheckInput) => ItemScore;
  /** Who answers the agent's questions; default: the scripted user (model-user.ts). */
  user?: UserPlayer;
  /**
   * Default true: a question of the agent's is answered once (by `user`) and asking is judged. False for
   * datasets whose turns are fixed (BFCL multi-turn: the next turn is the next user message).
   */
  scriptedUser?: boolean;
}

export interface TurnRecord {
  index: number;
  user: string;
  /** The agent's runs: one, or two when it asked (the question, then the run after the reply). */
  runs: AgentResult[];
  /** What the user answered to a question, when the agent asked. */
  reply?: string;
  /** The model that played the user and gave `reply` (absent: the scripted user did). */
  replyBy?: string;
  /** The turn needed a question (`ask` in the item). */
  askNeeded: boolean;
  /** The agent asked (scripted-user.ts `askedUser` on its first run). */
  asked: boolean;
  state: StateOutcome[];
  score: ItemScore;
  /** Calls, state and answer right, asked exactly when needed, and valid. */
  ok: boolean;
}

export interface ConversationRecord {
  id: string;
  kind: ConversationItem["kind"];
  turns: TurnRecord[];
  /** Every turn right. */
  success: boolean;
  /** 0-based index of the first turn that was not right; null on success. */
  firstFailingTurn: number | null;
  /** Turns right before the first failing one. */
  turnsCompleted: number;
  /** A turn's model answer could not be scored (its prompt overflowed the window …): the conversation is left out of every rate. */
  invalid?: InvalidReason;
  /** A model played the user (`--user-model`), not the scripted user. */
  userModel?: string;
}

export async function runConversation(input: RunConversationInput): Promise<ConversationRecord> {
  const { conversation } = input;
  const scoreTurn = input.scoreTurn ?? defaultTurnScore;
  const history: ConversationTurn[] = [];
  const turns: TurnRecord[] = [];
  for (const [index, spec] of conversation.turns.entries()) {
    const record = await runTurn(input, spec, index, history, scoreTurn);
    turns.push(record);
    if (record.score.invalid || input.signal?.aborted) break;
  }
  const failing = turns.findIndex((turn) => !turn.ok);
  const invalid = turns.find((turn) => turn.score.invalid)?.score.invalid;
  const complete = turns.length === conversation.turns.length;
  return {
    id: conversation.id,
    kind: conversation.kind,
    turns,
    success: complete && failing < 0 && !invalid,
    firstFailingTurn: failing >= 0 ? failing : complete ? null : turns.length,
    turnsCompleted: failing >= 0 ? failing : turns.length,
    ...(invalid ? { invalid } : {}),
    ...(input.user?.model ? { userModel: input.user.model } : {}),
  };
}

async function runTurn(
  input: RunConversationInput,
  spec: ConversationTurnSpec,
  index: number,
  history: ConversationTurn[],
  scoreTurn: (input: TurnCheckInput) => ItemScore,
): Promise<TurnRecord> {
  const run = (query: string) =>
    runAgent(query, {
      config: input.config,
      model: input.model,
      tools: input.session.tools,
      history: [...history],
      ...(input.context ? { context: input.context } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
    });
  input.session.beforeTurn?.(index);
  const first = await run(spec.user);
  history.push(turnFromResult(first));
  const runs = [first];
  const asked = askedUser(first);
  const scripted = input.scriptedUser ?? true;
  let reply: string | undefined;
  const user = input.user ?? SCRIPTED_USER;
  if (asked && scripted) {
    reply = await user.reply({
      conversation: input.conversation,
      index,
      question: first.answer,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    const second = await run(reply);
    history.push(turnFromResult(second));
    runs.push(second);
  }
  const state = await input.session.runStateChecks(spec.state ?? []);
  const trace = joinRuns(runs);
  const score = scoreTurn({
    conversation: input.conversation,
    index,
    trace,
    state,
    tools: input.session.tools.listTools(),
  });
  const askNeeded = spec.ask !== undefined;
  return {
    index,
    user: spec.user,
    runs,
    ...(reply === undefined ? {} : { reply }),
    ...(reply !== undefined && user.model ? { replyBy: user.model } : {}),
    askNeeded,
    asked,
    state,
    score,
    ok: score.taskSuccess && (!scripted || asked === askNeeded) && !score.invalid,
  };
}

function defaultTurnScore(input: TurnCheckInput): ItemScore {
  return scoreItem({
    item: turnAsItem(input.conversation, input.index),
    trace: input.trace,
    stateChecks: input.state,
    tools: input.tools,
  });
}

/** A turn's runs as one trace for the scorer: all their calls in order, the last run's answer and path. */
export function joinRuns(runs: readonly AgentResult[]): AgentResult {
  const last = runs.at(-1) as AgentResult;
  if (runs.length === 1) return last;
  // Model calls are renumbered in turn order; tool calls keep their numbers, which the last run's plan
  // steps refer to (a run that asked made no call, so they do not collide).
  const modelCalls = runs.flatMap((run) => run.modelCalls).map((call, index) => ({ ...call, seq: index + 1 }));
  const toolCalls = runs.flatMap((run) => run.toolCalls);
  const error = runs.find((run) => run.error)?.error;
  return {
    ...last,
    modelCalls,
    toolCalls,
    ...(error ? { error } : {}),
    timings: {
      totalMs: runs.reduce((sum, run) => sum + run.timings.totalMs, 0),
      modelMs: runs.reduce((sum, run) => sum + run.timings.modelMs, 0),
      toolsMs: runs.reduce((sum, run) => sum + run.timings.toolsMs, 0),
    },
  };
}
