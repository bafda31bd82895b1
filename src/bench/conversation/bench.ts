/**
 * `pnpm bench --dataset <conversations>`: every conversation through every model × configuration ×
 * repeat, on one pool of servers reset before each conversation (never between its turns). Writes
 * `conversations.jsonl` (one record per conversation, every turn's traces) and `conversations-summary.json`
 * to a run folder, and returns the summary rows.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentConfigInput } from "../../agent/index.ts";
import { multiTurnCategoriesOf } from "../../bfcl/multi-turn/conversation.ts";
import {
  MultiTurnDataset,
  type MultiTurnRow,
  type MultiTurnRunVerdict,
  summariseMultiTurn,
  withBfclTurnLimits,
} from "../../bfcl/multi-turn/conversation-run.ts";
import { loadModelsConfig, resolveConfiguration, resolveModel } from "../../config/models-yaml.ts";
import { loadRegistries } from "../../mcp/registry.ts";
import { createProvider } from "../../models/factory.ts";
import { hash32, seededRandom, shuffled } from "../../random.ts";
import { loadConversations, resolveDatasetFiles } from "../dataset/load.ts";
import { suiteOf } from "../dataset/suite.ts";
import { type ConversationItem, turnAsItem } from "../dataset/types.ts";
import { isBfclDataset } from "../run/bfcl-environment.ts";
import { MockEnvironment } from "../run/environment.ts";
import { contextOf, mockWorldContext } from "../run/resolve-request.ts";
import { newRunId, resultsRoot, runDir } from "../run/store.ts";
import { conversationGold } from "./gold.ts";
import { runConversation } from "./run-conversation.ts";
import { type ConversationRow, type ConversationScore, scoreConversation, summariseRow } from "./score.ts";

/** The configurations that hold a conversation, run when none is named. */
export const CONVERSATION_CONFIGS = ["onsetlab", "onsetlab-plus", "react", "native", "jsonl"] as const;

export interface ConversationBenchOptions {
  dataset: readonly string[];
  models: readonly string[];
  configs?: readonly string[];
  seed: number;
  repeats: number;
  /** Run the conversations in this seed's order (servers are reset before each: scores do not move). */
  shuffle?: number;
  modelsFile?: string;
  /** Registry files of the servers (merged; default: the mock servers'). */
  registries?: readonly string[];
  cli?: AgentConfigInput;
  resultsRoot?: string;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

export interface ConversationBenchSummary {
  kind: "conversations";
  runId: string;
  dir: string;
  dataset: string[];
  seed: number;
  repeats: number;
  rows: ConversationRow[];
  /** Per row (`model × config`), the conversations, scored. */
  scores: Record<string, ConversationScore[]>;
  /** BFCL multi-turn runs: per row, BFCL's accuracy, error types and the calls made in empty turns. */
  bfcl?: Record<string, MultiTurnRow>;
}

/** Does this dataset hold conversations and no single-turn item (or name BFCL multi-turn categories)? */
export function isConversationDataset(paths: readonly string[]): boolean {
  // a `bfcl:` spec names categories, not files: only its multi-turn ones are conversations
  if (isBfclDataset(paths)) return multiTurnCategoriesOf(paths) !== undefined;
  return loadConversations(paths).length > 0;
}

export async function runConversationBench(options: ConversationBenchOptions): Promise<ConversationBenchSummary> {
  const bfclCategories = multiTurnCategoriesOf(options.dataset);
  // BFCL multi-turn: each entry on its own environments, graded by BFCL's checker (src/bfcl/multi-turn)
  const bfcl = bfclCategories ? new MultiTurnDataset(bfclCategories) : undefined;
  const conversations = bfcl?.conversations ?? loadConversations(options.dataset).map((loaded) => loaded.conversation);
  const suite = bfcl ? undefined : suiteOf(resolveDatasetFiles(options.dataset));
  // BFCL's prompts carry no facts of the mock world (its date)
  const context = bfcl ? undefined : (contextOf(suite).context ?? mockWorldContext().context);
  const models = loadModelsConfig(options.modelsFile);
  const configs = options.configs && options.configs.length > 0 ? options.configs : CONVERSATION_CONFIGS;
  const gold = bfcl ? [] : conversations.flatMap(conversationGold);
  const environment = bfcl
    ? undefined
    : await MockEnvironment.open({
        registry: loadRegistries(options.registries),
        transport: "memory",
        pools: 1,
        seed: options.seed,
        ...(suite?.servers ? { servers: suite.servers } : {}),
      });
  const runId = newRunId(`conversations-${options.models.join("-")}`);
  const dir = runDir(runId, options.resultsRoot ?? resultsRoot());
  mkdirSync(dir, { recursive: true });
  const records: string[] = [];
  const scores: Record<string, ConversationScore[]> = {};
  const verdicts: Record<string, MultiTurnRunVerdict[]> = {};
  const order =
    options.shuffle === undefined ? conversations : shuffled(conversations, seededRandom(hash32(`${options.shuffle}`)));
  const total = options.models.length * configs.length * options.repeats * order.length;
  let done = 0;
  try {
    for (const modelName of options.models) {
      const entry = resolveModel(models, modelName);
      for (const configName of configs) {
        const config = resolveConfiguration(models, {
          model: entry,
          configName,
          ...(options.cli ? { cli: options.cli } : {}),
        });
        const row = `${modelName} × ${configName}`;
        const rowScores: ConversationScore[] = [];
        const rowVerdicts: MultiTurnRunVerdict[] = [];
        for (let repeat = 0; repeat < options.repeats; repeat++) {
          const model = createProvider(entry, { gold, seed: options.seed + repeat });
          for (const conversation of order) {
            if (options.signal?.aborted) break;
            const input = {
              conversation,
              model,
              config,
              ...(context ? { context } : {}),
              ...(options.signal ? { signal: options.signal } : {}),
            };
            if (bfcl) {
              const run = await bfcl.open(conversation);
              try {
                const record = await runConversation({
                  ...input,
                  // the simulator knows the entry's own turns only (BFCL's categories share turn texts)
                  model: createProvider(entry, { gold: bfcl.goldOf(conversation), seed: options.seed + repeat }),
                  config: withBfclTurnLimits(config),
                  session: run.session,
                  scriptedUser: false,
                  scoreTurn: (turn) => run.scoreTurn(turn),
                });
                const score = scoreConversation(record);
                const verdict = run.verdict(record.turns.length);
                rowScores.push(score);
                if (!record.invalid) rowVerdicts.push(verdict);
                records.push(
                  JSON.stringify({ model: modelName, config: configName, repeat, record, score, bfcl: verdict }),
                );
              } finally {
                await run.close();
              }
            } else {
              const session = await (environment as MockEnvironment).open(sessionItem(conversation), config.exposure);
              try {
                const record = await runConversation({ ...input, session });
                const score = scoreConversation(record);
                rowScores.push(score);
                records.push(JSON.stringify({ model: modelName, config: configName, repeat, record, score }));
              } finally {
                await session.release();
              }
            }
            options.onProgress?.(++done, total);
          }
        }
        if (bfcl) verdicts[row] = rowVerdicts;
        // the shuffled order must not move a row's scores: they are listed in dataset order
        const position = new Map(conversations.map((conversation, index) => [conversation.id, index]));
        rowScores.sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
        scores[row] = rowScores;
      }
    }
  } finally {
    await environment?.close();
  }
  const rows = Object.entries(scores).map(([row, list]) => {
    const [model, config] = row.split(" × ") as [string, string];
    return summariseRow(model, config, list);
  });
  const summary: ConversationBenchSummary = {
    kind: "conversations",
    runId,
    dir,
    dataset: [...options.dataset],
    seed: options.seed,
    repeats: options.repeats,
    rows,
    scores,
    ...(bfcl
      ? { bfcl: Object.fromEntries(Object.entries(verdicts).map(([row, list]) => [row, summariseMultiTurn(list)])) }
      : {}),
  };
  writeFileSync(join(dir, "conversations.jsonl"), records.map((line) => `${line}\n`).join(""));
  writeFileSync(join(dir, "conversations-summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}

/** The session a conversation runs in: its servers, picked as for its first turn's item. */
function sessionItem(conversation: ConversationItem) {
  return { ...turnAsItem(conversation, 0), id: conversation.id };
}
