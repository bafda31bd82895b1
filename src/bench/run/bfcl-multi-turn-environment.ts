/**
 * The tool side of a BFCL multi-turn run (`--dataset bfcl:multi_turn_*`): each entry's task opens a
 * fresh run of it (its environments from the entry's initial_config, served in-process over MCP, and
 * BFCL's checker), and its conversation runs on that run's session — the turn's tools (miss_func's
 * held-back functions from their turn on), no scripted reply, every turn graded by BFCL's checker.
 */
import { BFCL_SERVER } from "../../bfcl/import.ts";
import { multiTurnCategoriesOf } from "../../bfcl/multi-turn/conversation.ts";
import { MultiTurnDataset, type MultiTurnRun, withBfclTurnLimits } from "../../bfcl/multi-turn/conversation-run.ts";
import { BoundedCache } from "../../memo.ts";
import type { ToolDefinition, ToolHost } from "../../tool-protocol/types.ts";
import { runConversationTask } from "../conversation/task.ts";
import type { ConversationItem, DatasetItem } from "../dataset/types.ts";
import type { ItemScore } from "../scoring/score-types.ts";
import type { ItemSession, ToolEnvironment } from "./environment.ts";
import { type TaskBodyInput, type TaskBodyOutcome, throwIfStopped } from "./execute.ts";

// reading the four categories takes ~0.5 s: once per thread, not for the selection, the gold and the servers apiece
const datasets = new BoundedCache<string, MultiTurnDataset>(2);

/** The BFCL multi-turn entries a `--dataset` names (undefined: it names no multi-turn category). */
export function multiTurnDatasetOf(dataset: readonly string[]): MultiTurnDataset | undefined {
  const categories = multiTurnCategoriesOf(dataset);
  return categories && datasets.get(categories.join(","), () => new MultiTurnDataset(categories));
}

/** A multi-turn entry's session: the run's current turn's tools, and the run it belongs to. */
export interface MultiTurnItemSession extends ItemSession {
  readonly run: MultiTurnRun;
  beforeTurn(index: number): void;
}

export class MultiTurnEnvironment implements ToolEnvironment {
  constructor(
    private readonly dataset: MultiTurnDataset,
    private readonly conversations: ReadonlyMap<string, ConversationItem>,
  ) {}

  /** Each entry brings its own functions (the scorer is BFCL's checker, which needs no catalog). */
  definitions(): readonly ToolDefinition[] {
    return [];
  }

  async open(item: DatasetItem): Promise<MultiTurnItemSession> {
    const run = await this.dataset.open(this.conversations.get(item.id)!);
    return {
      run,
      // the run swaps its tools as the turns go (beforeTurn): read them through, never copy them
      get tools(): ToolHost {
        return run.session.tools;
      },
      servers: [BFCL_SERVER],
      runStateChecks: async () => [],
      beforeTurn: (index) => run.session.beforeTurn(index),
      release: () => run.close(),
    };
  }

  async close(): Promise<void> {}
}

/**
 * A multi-turn entry's task: its turns in order, BFCL's turn limits, no context of the mock world (BFCL's
 * prompts carry none), BFCL's verdict on the entry in the record's `bfcl`.
 */
export function multiTurnBody(
  conversations: ReadonlyMap<string, ConversationItem>,
): (input: TaskBodyInput) => Promise<TaskBodyOutcome<ItemScore>> {
  return async ({ task, item, config, model, session, signal }) => {
    const { run } = session as MultiTurnItemSession;
    const outcome = await runConversationTask(
      {
        conversation: conversations.get(task.itemId)!,
        session: session as MultiTurnItemSession,
        model,
        config: withBfclTurnLimits(config),
        scriptedUser: false,
        scoreTurn: (turn) => run.scoreTurn(turn),
        ...(signal ? { signal } : {}),
      },
      item.category,
    );
    throwIfStopped(task, signal);
    return { ...outcome, extra: { ...outcome.extra, bfcl: run.verdict(outcome.extra.conversation.turns.length) } };
  };
}
