/**
 * Executes a run's tasks: each query through the agent with its configuration and model, against a
 * leased set of servers, then its state checks and its score. The queries in flight in one thread pull
 * tasks from one queue; every finished task is handed to `onRecord` at once.
 */

import { runAgent } from "../../agent/agent.ts";
import type { AgentConfig, AgentResult } from "../../agent/types.ts";
import { agentConfigOf, type Configuration } from "../../config/configuration.ts";
import { OnsetlabError } from "../../errors.ts";
import type { ModelProvider } from "../../models/types.ts";
import type { Exposure } from "../dataset/exposure.ts";
import type { DatasetItem } from "../dataset/types.ts";
import type { ItemSession, StateOutcome, ToolEnvironment } from "./environment.ts";
import type { Task } from "./matrix.ts";

export interface TaskRecord<S> {
  key: string;
  model: string;
  config: string;
  itemId: string;
  repeat: number;
  /**
   * What was connected for the query: the configuration's exposure, the session's servers, and the resets
   * of a user's servers that ran before it (by server: restart, fixture or command).
   */
  session: { exposure: Exposure; servers: string[]; resets?: Record<string, string> };
  /** Epoch ms when the query started (a timing field, like every duration in the trace). */
  startedAt: number;
  /** Wall time of the whole task: lease and reset of the servers, the agent, state checks, scoring. */
  taskMs: number;
  result: AgentResult;
  state: StateOutcome[];
  score: S;
}

/** The run was stopped (Ctrl-C, a model outage) while this query was under way: it gets no record. */
export class TaskInterruptedError extends OnsetlabError {}

export interface TaskFailure {
  task: Task;
  message: string;
  /** The run's stop cut this query short (not a harness fault). */
  interrupted?: boolean;
}

/** What one task does on its leased servers, given its item, configuration and model. */
export interface TaskBodyInput {
  task: Task;
  item: DatasetItem;
  config: AgentConfig;
  model: ModelProvider;
  session: ItemSession;
  context?: string;
  signal?: AbortSignal;
}

export interface TaskBodyOutcome<S> {
  result: AgentResult;
  state: StateOutcome[];
  score: S;
  /** Fields the record carries besides the standard ones (a conversation's turns). */
  extra?: Record<string, unknown>;
}

export interface ExecuteOptions<S> {
  tasks: readonly Task[];
  items: ReadonlyMap<string, DatasetItem>;
  /** The task's model (`itemId`: a simulator may answer from that item's gold only). */
  provider: (model: string, repeat: number, itemId: string) => ModelProvider;
  config: (model: string, config: string) => Configuration;
  environment: ToolEnvironment;
  score: (input: { item: DatasetItem; result: AgentResult; state: StateOutcome[]; environment: ToolEnvironment }) => S;
  concurrency: number;
  /** Facts every query's planner gets (the mock world's date). */
  context?: string;
  onRecord: (record: TaskRecord<S>) => void;
  signal?: AbortSignal;
  /** What a task does instead of the item's query, its state checks and `score` (a conversation's turns). */
  body?: (input: TaskBodyInput) => Promise<TaskBodyOutcome<S>>;
}

/**
 * Runs every task; returns the tasks the HARNESS could not finish (a server that would not answer, a
 * bug) — those get no record, so a resume retries them. Model and tool failures are the agent's to
 * record: they end up in the trace and the score, never here.
 */
export async function executeTasks<S>(options: ExecuteOptions<S>): Promise<TaskFailure[]> {
  const failures: TaskFailure[] = [];
  let next = 0;
  const worker = async () => {
    while (next < options.tasks.length && !options.signal?.aborted) {
      const task = options.tasks[next++]!;
      try {
        options.onRecord(await executeTask(task, options));
      } catch (error) {
        failures.push({
          task,
          message: error instanceof Error ? error.message : String(error),
          ...(error instanceof TaskInterruptedError ? { interrupted: true } : {}),
        });
      }
      // in-memory tasks resolve in microtasks only: yield, so that timers and other threads' messages run
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  return failures;
}

/** The default task: the item's query through the agent, then its state checks and its score. */
function queryBody<S>(options: ExecuteOptions<S>): (input: TaskBodyInput) => Promise<TaskBodyOutcome<S>> {
  return async ({ task, item, config, model, session, context, signal }) => {
    const result = await runAgent(item.query, { config, model, tools: session.tools, context, signal });
    throwIfStopped(task, signal);
    const state = await session.runStateChecks();
    return { result, state, score: options.score({ item, result, state, environment: options.environment }) };
  };
}

/** A query cut short by the run's stop measures the stop, not the model: a resume runs it again. */
export function throwIfStopped(task: Task, signal: AbortSignal | undefined): void {
  if (!signal?.aborted) return;
  throw new TaskInterruptedError("TASK_INTERRUPTED", `${task.key}: the run was stopped during this query`, {
    context: { key: task.key },
    cause: signal.reason,
  });
}

async function executeTask<S>(task: Task, options: ExecuteOptions<S>): Promise<TaskRecord<S>> {
  const started = performance.now();
  const item = options.items.get(task.itemId);
  if (!item) throw new Error(`item ${task.itemId} is not in the dataset`);
  const config = options.config(task.model, task.config);
  const session = await options.environment.open(item, config.exposure);
  try {
    const startedAt = Date.now();
    const input: TaskBodyInput = {
      task,
      item,
      config: agentConfigOf(config),
      model: options.provider(task.model, task.repeat, task.itemId),
      session,
      ...(options.context === undefined ? {} : { context: options.context }),
      ...(options.signal ? { signal: options.signal } : {}),
    };
    const { result, state, score, extra } = await (options.body ?? queryBody(options))(input);
    return {
      ...extra,
      ...task,
      session: {
        exposure: config.exposure,
        servers: [...session.servers],
        ...(session.resets ? { resets: { ...session.resets } } : {}),
      },
      startedAt,
      taskMs: performance.now() - started,
      result,
      state,
      score,
    };
  } finally {
    await session.release();
  }
}
