/**
 * Runs one thread's share of a run's tasks: its own providers, servers and tracer, every finished task
 * turned into its records.jsonl.gz line and its traces.jsonl.gz lines right here, so the thread that writes
 * the files (the main one) only appends text. The same code runs in the main thread and in each worker
 * thread (threads.ts).
 */
import type { Configuration } from "../../config/configuration.ts";
import { loadModelsConfig, resolveModel } from "../../config/models-yaml.ts";
import { createProvider } from "../../models/factory.ts";
import type { ModelProvider } from "../../models/types.ts";
import type { ToolDefinition } from "../../tool-protocol/types.ts";
import { modelUser, type UserPlayer } from "../conversation/model-user.ts";
import { CONVERSATION_CATEGORY, runConversationTask } from "../conversation/task.ts";
import { toolCallCheckProblems } from "../dataset/crosscheck.ts";
import { DatasetError } from "../dataset/errors.ts";
import { readOnlyIn } from "../dataset/state-checks.ts";
import { type ConversationItem, type DatasetItem, turnAsItem } from "../dataset/types.ts";
import { scoreItem } from "../scoring/score-item.ts";
import type { ItemScore } from "../scoring/score-types.ts";
import { ToolCatalog } from "../scoring/tool-catalog.ts";
import { BfclEnvironment } from "./bfcl-environment.ts";
import { MultiTurnEnvironment, multiTurnBody, multiTurnDatasetOf } from "./bfcl-multi-turn-environment.ts";
import { DryRunEnvironment, dryRunItem } from "./dry-run.ts";
import { MockEnvironment, type ToolEnvironment } from "./environment.ts";
import { executeTasks, type TaskBodyInput, type TaskBodyOutcome, type TaskFailure, throwIfStopped } from "./execute.ts";
import type { Task } from "./matrix.ts";
import type { ModelOutageWatch } from "./model-outage.ts";
import { itemGold, providerCache, resolveEntries, runGold } from "./providers.ts";
import { requestRegistry } from "./resolve-request.ts";
import { type BenchRequest, storedRecord } from "./run-file-types.ts";
import { type SpanParent, startQueryTracer } from "./spans.ts";
import { jsonLineBytes, lineBytes } from "./store.ts";

/** What a thread needs to run tasks of a run: plain data, so it can be posted to a worker thread. */
export interface ShareSpec {
  runId: string;
  request: BenchRequest;
  modelsFile?: string;
  resolved: Record<string, Record<string, Configuration>>;
  items: DatasetItem[];
  /** A dataset of conversations: each task runs one, turn by turn (one item each in `items`). */
  conversations?: ConversationItem[];
  bfcl: boolean;
  /** Queries in flight in this thread (one set of servers each). */
  concurrency: number;
  /** The planner's date line from the suite's clock (none without one). */
  context?: string;
  /** The suite's servers: only these connect (default: every server of the registry). */
  servers?: string[];
  /** The run span the queries' spans hang under. */
  spanParent: SpanParent;
}

/** A finished task as the files want it. */
export interface FinishedTask {
  key: string;
  config: string;
  itemId: string;
  taskSuccess: boolean;
  /** Its item could not be scored (score.invalid): not in the running accuracy either. */
  invalid: boolean;
  /** Its records.jsonl.gz line, newline included, as UTF-8 (store.ts lineBytes: a worker transfers it). */
  recordLine: Uint8Array<ArrayBuffer>;
  /** Its spans' traces.jsonl.gz lines, newlines included, as UTF-8. */
  spanLines: Uint8Array<ArrayBuffer>;
}

export interface ShareHooks {
  signal: AbortSignal;
  /** Watches this thread's providers (the main thread's watch stops the whole run). */
  outage: ModelOutageWatch;
  /** The providers to use (the main thread made its own before the run started); default: new ones. */
  providers?: (model: string, repeat: number, itemId: string) => ModelProvider;
  onFinished: (task: FinishedTask) => void;
}

export async function runShare(spec: ShareSpec, tasks: readonly Task[], hooks: ShareHooks): Promise<TaskFailure[]> {
  const providers = hooks.providers ?? shareProviders(spec, hooks.outage);
  const byId = new Map(spec.items.map((item) => [item.id, item]));
  const registry = requestRegistry(spec.request);
  const conversations = spec.conversations && new Map(spec.conversations.map((entry) => [entry.id, entry]));
  // each thread reads the multi-turn entries itself: a worker gets plain data only
  const multiTurn = spec.bfcl ? multiTurnDatasetOf(spec.request.dataset) : undefined;
  const servers: ToolEnvironment = multiTurn
    ? new MultiTurnEnvironment(multiTurn, conversations!)
    : spec.bfcl
      ? new BfclEnvironment()
      : await MockEnvironment.open({
          registry,
          transport: spec.request.transport,
          pools: spec.concurrency,
          seed: spec.request.seed,
          ...(spec.servers ? { servers: spec.servers } : {}),
          ...(spec.request.faults ? { faults: spec.request.faults } : {}),
        });
  const dryRun = spec.request.dryRun === true;
  const environment = dryRun ? new DryRunEnvironment(servers) : servers;
  const spanLines: string[] = [];
  const tracer = startQueryTracer(spec.runId, spec.spanParent, (line) => {
    spanLines.push(JSON.stringify(line), "\n");
  });
  try {
    if (!spec.bfcl) requireCheckableState(spec, environment.definitions(), readOnlyIn(registry));
    const catalog = new ToolCatalog(environment.definitions());
    return await executeTasks<ItemScore>({
      tasks,
      items: byId,
      provider: providers,
      config: (model, config) => spec.resolved[model]![config]!,
      environment,
      score: ({ item, result, state, environment: env }) =>
        scoreItem({
          item: dryRun ? dryRunItem(item) : item,
          trace: result,
          stateChecks: state,
          tools: item.tools || spec.bfcl ? env.definitions(item) : catalog,
        }),
      ...(conversations
        ? {
            body: multiTurn
              ? multiTurnBody(conversations)
              : conversationBody(conversations, userPlayer(spec, hooks.outage)),
          }
        : {}),
      concurrency: spec.concurrency,
      ...(spec.context === undefined ? {} : { context: spec.context }),
      signal: AbortSignal.any([hooks.signal, hooks.outage.signal]),
      onRecord: (record) => {
        const item = byId.get(record.itemId)!;
        const category = conversations ? CONVERSATION_CATEGORY : item.category;
        const recordLine = jsonLineBytes(storedRecord(record, category));
        spanLines.length = 0;
        tracer.recordQuery({
          key: record.key,
          model: record.model,
          config: record.config,
          itemId: record.itemId,
          category,
          startedAt: record.startedAt,
          result: record.result,
          taskSuccess: record.score.taskSuccess,
        });
        hooks.onFinished({
          key: record.key,
          config: record.config,
          itemId: record.itemId,
          taskSuccess: record.score.taskSuccess,
          invalid: record.score.invalid !== undefined,
          recordLine,
          spanLines: lineBytes(spanLines.join("")),
        });
      },
    });
  } finally {
    await tracer.end();
    await environment.close();
  }
}

/**
 * Every tool-call state check calls a read-only tool of its server with fitting arguments: known only once
 * the servers listed their tools, and checked before the first query (a check must not change what it checks).
 */
function requireCheckableState(
  spec: ShareSpec,
  tools: readonly ToolDefinition[],
  readOnly: (tool: ToolDefinition) => boolean,
): void {
  const where = spec.request.dataset.join(", ") || "the dataset";
  const items = spec.conversations
    ? spec.conversations.flatMap((conversation) =>
        conversation.turns.map((_, index) => turnAsItem(conversation, index)),
      )
    : spec.items;
  const problems = toolCallCheckProblems(
    items.map((item) => ({ item, file: where, line: 0 })),
    tools,
    readOnly,
  );
  if (problems.length > 0) throw new DatasetError("DATASET_BAD_STATE_CHECK", problems);
}

function shareProviders(
  spec: ShareSpec,
  outage: ModelOutageWatch,
): (model: string, repeat: number, itemId: string) => ModelProvider {
  const models = loadModelsConfig(spec.modelsFile);
  const entries = resolveEntries(models, spec.request);
  return providerCache(entries, runGold(spec), spec.request, outage, undefined, itemGold(spec));
}

/** `--user-model M`: that model answers the agent's questions (its own provider); default: the scripted user. */
function userPlayer(spec: ShareSpec, outage: ModelOutageWatch): UserPlayer | undefined {
  const name = spec.request.userModel;
  if (name === undefined) return undefined;
  const entry = resolveModel(loadModelsConfig(spec.modelsFile), name);
  return modelUser(name, outage.watch(createProvider(entry, { gold: runGold(spec), seed: spec.request.seed })));
}

/** A conversation task: its turns in order on the leased servers (conversation/task.ts). */
function conversationBody(
  conversations: ReadonlyMap<string, ConversationItem>,
  user: UserPlayer | undefined,
): (input: TaskBodyInput) => Promise<TaskBodyOutcome<ItemScore>> {
  return async ({ task, item, config, model, session, context, signal }) => {
    const conversation = conversations.get(task.itemId)!;
    const outcome = await runConversationTask(
      {
        conversation,
        session,
        model,
        config,
        ...(user ? { user } : {}),
        ...(context === undefined ? {} : { context }),
        ...(signal ? { signal } : {}),
      },
      item.category,
    );
    throwIfStopped(task, signal);
    return outcome;
  };
}
