/**
 * Model time on a conversation dataset (`pnpm bench:perf model-time --dataset FILE`): the conversations
 * through the configurations that hold one, `qwen2.5:3b` against the stand-in paced as a laptop 3B (one
 * slot with its prompt cache), a cold request cache, then the same run again.
 *
 * A conversation's turns share their prefix: every turn's request repeats the earlier turns in the same
 * form (agent/history.ts), so the slot's prompt cache serves them and only the new turn is evaluated.
 * Figures: prompt tokens evaluated per token sent (target ≤ 0.35), and on the second run the share of
 * turns whose every model call the request cache answered.
 */
import { join } from "node:path";
import { conversationGold } from "../conversation/gold.ts";
import type { ConversationRecord } from "../conversation/run-conversation.ts";
import { CONVERSATION_CONFIGS } from "../conversation/task.ts";
import { loadConversations } from "../dataset/load.ts";
import { runBench } from "../run/bench.ts";
import { forEachRunRecord } from "../run/run-format.ts";
import { RUN_FILES } from "../run/store.ts";
import { withLaptopStandin } from "./model-time.ts";

/** Prompt tokens evaluated / sent on the conversation dataset must stay at or under this. */
export const CONVERSATION_EVALUATED_TARGET = 0.35;

export interface ConversationTimeOptions {
  dataset: string;
  /** The first N conversations (`--limit`). */
  limit: number;
  configs?: readonly string[];
  timeScale: number;
  model: string;
  seed: number;
  log: (line: string) => void;
}

/** What `--json` prints for a conversation dataset. */
export interface ConversationTimeFigures {
  evaluatedPerSent: number;
  /** Second identical run: turns whose every model call came from the request cache, per turn run. */
  rerunTurnHitShare: number;
  rerunServed: number;
}

export interface ConversationTimeReport {
  figures: ConversationTimeFigures;
  dataset: string;
  conversations: number;
  configs: readonly string[];
  timeScale: number;
  turns: number;
  hitTurns: number;
  /** The first run's requests and prompt tokens, per configuration. */
  perConfig: ConfigTokens[];
  firstWallMs: number;
  rerunWallMs: number;
}

export interface ConfigTokens {
  config: string;
  requests: number;
  sent: number;
  evaluated: number;
}

export async function measureConversationTime(options: ConversationTimeOptions): Promise<ConversationTimeReport> {
  const conversations = loadConversations([options.dataset])
    .map((loaded) => loaded.conversation)
    .slice(0, options.limit);
  const gold = conversations.flatMap(conversationGold);
  const configs = options.configs && options.configs.length > 0 ? options.configs : CONVERSATION_CONFIGS;
  return withLaptopStandin({ gold, seed: options.seed, timeScale: options.timeScale }, async (standin, root) => {
    // one configuration after another, the stand-in's counts read after each: the figures per configuration
    const run = async () => {
      const started = performance.now();
      const records: ConversationRecord[] = [];
      const perConfig: ConfigTokens[] = [];
      for (const config of configs) {
        standin.resetStats();
        // the standard run (the CLI's `bench --dataset FILE --first N`), its conversations read back from its records
        const { dir } = await runBench({
          request: {
            models: [options.model],
            configs: [config],
            dataset: [options.dataset],
            filter: {},
            first: options.limit,
            seed: options.seed,
            repeats: 1,
            transport: "memory",
          },
          resultsRoot: root,
          cacheDir: join(root, "cache"),
        });
        forEachRunRecord(join(dir, RUN_FILES.records), (record) => {
          if (record.conversation) records.push(record.conversation);
        });
        const stats = standin.stats();
        perConfig.push({
          config,
          requests: stats.requests,
          sent: stats.promptTokensSent,
          evaluated: stats.promptTokensEvaluated,
        });
      }
      const total = (key: "requests" | "sent" | "evaluated") => perConfig.reduce((sum, row) => sum + row[key], 0);
      return {
        wallMs: performance.now() - started,
        requests: total("requests"),
        sent: total("sent"),
        evaluated: total("evaluated"),
        perConfig,
        records,
      };
    };
    options.log(`first run (cold request cache): ${conversations.length} conversations × ${configs.join(", ")}…`);
    const first = await run();
    options.log(`first run: ${(first.wallMs / 1000).toFixed(1)} s, ${first.requests} requests; second run…`);
    const rerun = await run();
    const { turns, hitTurns } = cachedTurns(rerun.records);
    return {
      figures: {
        evaluatedPerSent: first.evaluated / Math.max(1, first.sent),
        rerunTurnHitShare: hitTurns / Math.max(1, turns),
        rerunServed: rerun.requests,
      },
      dataset: options.dataset,
      conversations: conversations.length,
      configs,
      timeScale: options.timeScale,
      turns,
      hitTurns,
      perConfig: first.perConfig,
      firstWallMs: first.wallMs,
      rerunWallMs: rerun.wallMs,
    };
  });
}

/** Turns run, and those whose every model call (of every run of the turn) the request cache answered. */
export function cachedTurns(records: readonly ConversationRecord[]): { turns: number; hitTurns: number } {
  let turns = 0;
  let hitTurns = 0;
  for (const record of records) {
    for (const turn of record.turns) {
      const calls = turn.runs.flatMap((run) => run.modelCalls);
      turns += 1;
      if (calls.length > 0 && calls.every((call) => call.cached)) hitTurns += 1;
    }
  }
  return { turns, hitTurns };
}

export function formatConversationTime(report: ConversationTimeReport): string {
  const { figures } = report;
  const ratio = (evaluated: number, sent: number) => (evaluated / Math.max(1, sent)).toFixed(3);
  const ok = figures.evaluatedPerSent <= CONVERSATION_EVALUATED_TARGET;
  const sent = report.perConfig.reduce((sum, row) => sum + row.sent, 0);
  const evaluated = report.perConfig.reduce((sum, row) => sum + row.evaluated, 0);
  return [
    `model time on conversations: ${report.dataset}, ${report.conversations} conversations × ${report.configs.join(", ")}, ` +
      "qwen2.5:3b on the stand-in paced as a laptop 3B (1 slot with its prompt cache); simulated (stand-in)",
    `prompt tokens evaluated / sent           ${evaluated} / ${sent} = ${figures.evaluatedPerSent.toFixed(3)}   ` +
      `target ≤ ${CONVERSATION_EVALUATED_TARGET} ${ok ? "✓" : "✗ MISSED"}`,
    ...report.perConfig.map(
      (row) =>
        `  ${row.config.padEnd(38)} ${row.evaluated} / ${row.sent} = ${ratio(row.evaluated, row.sent)} (${row.requests} requests)`,
    ),
    `second identical run: turns all cached   ${report.hitTurns} / ${report.turns} = ${(figures.rerunTurnHitShare * 100).toFixed(1)}%, ` +
      `${figures.rerunServed} requests served`,
    `wall clock (scaled ×${report.timeScale})       first ${(report.firstWallMs / 1000).toFixed(1)} s, second ${(report.rerunWallMs / 1000).toFixed(1)} s`,
    "",
  ].join("\n");
}
