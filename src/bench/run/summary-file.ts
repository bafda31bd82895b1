import { join } from "node:path";
import { multiTurnCategoriesOf } from "../../bfcl/multi-turn/conversation.ts";
import { type MultiTurnRunVerdict, summariseMultiTurn } from "../../bfcl/multi-turn/conversation-run.ts";
import { type ConversationScore, scoreConversation, summariseRow } from "../conversation/score.ts";
import type { DatasetItem } from "../dataset/types.ts";
import { type ScoredRecord, summarize, validRecords } from "../scoring/summarize.ts";
import {
  type ConversationSummary,
  compareConfigurations,
  type PromptCacheUse,
  type RunSummary,
} from "./compare-configs.ts";
import { type RunManifest, withTrace } from "./run-file-types.ts";
import { forEachRunRecord, SUMMARY_FORMAT } from "./run-format.ts";
import { RUN_FILES, runFile, writeJsonAtomic } from "./store.ts";

/**
 * Reads every record of the run back and writes summary.json (also used by `results merge`) with the
 * share of each model's prompt tokens its server's prompt cache could serve; notes in the manifest the
 * windows each model's requests got (the caller writes run.json).
 */
export function writeSummary(dir: string, manifest: RunManifest, items: ReadonlyMap<string, DatasetItem>): RunSummary {
  // streamed: only the scores stay in memory, never the traces
  const scored: ScoredRecord[] = [];
  const conversations: ScoredConversation[] = [];
  const windows = new Map<string, Set<number>>();
  const promptCache = new Map<string, PromptCacheUse>();
  forEachRunRecord(runFile(dir, "records"), (record) => {
    for (const call of withTrace(record).result.modelCalls) {
      if (call.sharedPrefixTokens !== undefined && call.usage) {
        const use = promptCache.get(record.model) ?? { model: record.model, sentTokens: 0, sharedTokens: 0, share: 0 };
        use.sentTokens += call.usage.promptTokens;
        // never more than the server counted (its tokens are not exactly 4 characters)
        use.sharedTokens += Math.min(call.sharedPrefixTokens, call.usage.promptTokens);
        promptCache.set(record.model, use);
      }
      if (call.context?.window === undefined) continue;
      const seen = windows.get(record.model) ?? new Set<number>();
      windows.set(record.model, seen.add(call.context.window));
    }
    scored.push({
      model: record.model,
      config: record.config,
      item: items.get(record.itemId)!,
      score: record.score,
      repeat: record.repeat,
    });
    if (record.conversation) {
      const { model, config, repeat } = record;
      conversations.push({
        model,
        config,
        repeat,
        score: scoreConversation(record.conversation),
        // an invalid run counts in none of BFCL's rates
        ...(record.bfcl && record.score.invalid === undefined ? { bfcl: record.bfcl } : {}),
      });
    }
  });
  // in matrix order, not finishing order: the same run always writes the same summary
  const rank = (order: readonly string[]) => new Map(order.map((name, index) => [name, index]));
  const models = rank(manifest.request.models);
  const configs = rank(manifest.configs);
  const itemOrder = rank(manifest.dataset.itemIds);
  scored.sort(
    (a, b) =>
      models.get(a.model)! - models.get(b.model)! ||
      configs.get(a.config)! - configs.get(b.config)! ||
      itemOrder.get(a.item.id)! - itemOrder.get(b.item.id)! ||
      (a.repeat ?? 0) - (b.repeat ?? 0),
  );
  manifest.models = manifest.models.map((model) =>
    windows.has(model.name) ? { ...model, windowsUsed: [...windows.get(model.name)!].sort((a, b) => a - b) } : model,
  );
  const table = summarize(scored);
  const summary: RunSummary = {
    format: SUMMARY_FORMAT,
    runId: manifest.runId,
    simulated: manifest.simulated,
    provenance: manifest.models.map((model) => ({ model: model.name, provenance: model.provenance })),
    ...(manifest.request.dryRun ? { dryRun: true } : {}),
    records: scored.length,
    ...table,
    // a conversation is filed under its first turn's item: the single-turn categories do not describe it
    ...(conversations.length > 0 ? { byCategory: [] } : {}),
    comparisons: compareConfigurations(validRecords(scored)),
    ...(manifest.sequential ? { sequential: manifest.sequential } : {}),
    ...(promptCache.size > 0 ? { promptCache: [...promptCache.values()].map(withShare) } : {}),
    ...(conversations.length > 0 ? { conversations: conversationSummary(conversations, manifest) } : {}),
  };
  writeJsonAtomic(join(dir, RUN_FILES.summary), summary);
  return summary;
}

function withShare(use: PromptCacheUse): PromptCacheUse {
  return { ...use, share: use.sentTokens > 0 ? use.sharedTokens / use.sentTokens : 0 };
}

interface ScoredConversation {
  model: string;
  config: string;
  repeat: number;
  score: ConversationScore;
  bfcl?: MultiTurnRunVerdict;
}

/** The rows in matrix order, each row's conversations in dataset order (then repeat). */
function conversationSummary(scored: ScoredConversation[], manifest: RunManifest): ConversationSummary {
  const position = new Map(manifest.dataset.itemIds.map((id, index) => [id, index]));
  const rows: ConversationSummary["rows"] = [];
  const multiTurn = multiTurnCategoriesOf(manifest.dataset.files) !== undefined;
  for (const model of manifest.request.models) {
    for (const config of manifest.configs) {
      const row = scored
        .filter((entry) => entry.model === model && entry.config === config)
        .sort((a, b) => position.get(a.score.id)! - position.get(b.score.id)! || a.repeat - b.repeat);
      if (row.length === 0) continue;
      const verdicts = row.flatMap((entry) => (entry.bfcl ? [entry.bfcl] : []));
      rows.push({
        ...summariseRow(
          model,
          config,
          row.map((entry) => entry.score),
        ),
        ...(multiTurn ? { bfcl: summariseMultiTurn(verdicts) } : {}),
      });
    }
  }
  const { userModel } = manifest.request;
  return { rows, ...(userModel ? { userModel } : {}) };
}
