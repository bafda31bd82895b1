/**
 * The paired comparisons a summary carries: for each model, every pair of its configurations on the
 * same items (McNemar's exact test on task success and tool choice), so a report can say which
 * differences are real.
 */

import type { MultiTurnRow } from "../../bfcl/multi-turn/conversation-run.ts";
import type { ModelProvenance } from "../../models/provenance.ts";
import type { ConversationRow } from "../conversation/score.ts";
import { type Comparison, compare } from "../scoring/compare.ts";
import { groupBy, type ScoredRecord, type Summary } from "../scoring/summarize.ts";
import type { SUMMARY_FORMAT } from "./run-format.ts";
import type { SequentialOutcome } from "./until-significant.ts";

export interface ConfigComparison extends Comparison {
  model: string;
  a: string;
  b: string;
}

/** summary.json: the scorer's summary, the paired comparisons, and where the numbers came from. */
export interface RunSummary extends Summary {
  /** The file's format (run-format.ts: an older summary is upgraded when read). */
  format: typeof SUMMARY_FORMAT;
  runId: string;
  /** Any number here came from the simulator: every table built from it says "simulated". */
  simulated: boolean;
  /** A dry run (`--dry-run`): writes were previewed, not made; end-state checks were not measured. */
  dryRun?: boolean;
  /**
   * Whose answers each model's numbers are (live, simulated, stand-in, replayed from a cassette), as
   * run.json says. Absent in summaries made before it: those carried `standin` and `replayedFrom`.
   */
  provenance?: ModelProvenance[];
  records: number;
  comparisons: ConfigComparison[];
  /** `--until-significant`: the looks taken and the decision (as in run.json). */
  sequential?: SequentialOutcome;
  /** Real servers: how much of each model's prompts its server's prompt cache could serve. */
  promptCache?: PromptCacheUse[];
  /** A run of conversations: per model × configuration, success per kind, by turn index, pass^k, failure classes. */
  conversations?: ConversationSummary;
}

export interface ConversationSummary {
  rows: ConversationSummaryRow[];
  /** A model played the user (`--user-model`): its answers are on the turns (`reply`, `replyBy`). */
  userModel?: string;
}

/** A row of conversations; a BFCL multi-turn run's also has BFCL's figures (its checker's verdicts). */
export interface ConversationSummaryRow extends ConversationRow {
  bfcl?: MultiTurnRow;
}

export interface PromptCacheUse {
  model: string;
  /** Prompt tokens of the calls that reached the server. */
  sentTokens: number;
  /** Of those, the tokens shared with the previous request to the model (4 characters each). */
  sharedTokens: number;
  /** sharedTokens / sentTokens. */
  share: number;
}

export function compareConfigurations(records: readonly ScoredRecord[]): ConfigComparison[] {
  const comparisons: ConfigComparison[] = [];
  for (const [model, ofModel] of groupBy(records, (record) => record.model)) {
    const byConfig = groupBy(ofModel, (record) => record.config);
    const configs = [...byConfig.keys()];
    configs.forEach((a, index) => {
      for (const b of configs.slice(index + 1)) {
        comparisons.push({ model, a, b, ...compare(byConfig.get(a)!, byConfig.get(b)!) });
      }
    });
  }
  return comparisons;
}
