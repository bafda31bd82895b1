/**
 * The shapes of a run's files: run.json (`RunManifest`, with the `BenchRequest` a resume repeats) and each
 * line of records.jsonl.gz (`RunRecord`). docs/schemas/ has their JSON Schemas, checked against real runs.
 */
import type { AgentResult } from "../../agent/types.ts";
import type { MultiTurnRunVerdict } from "../../bfcl/multi-turn/conversation-run.ts";
import type { Configuration } from "../../config/configuration.ts";
import type { ResetKind } from "../../mcp/registry.ts";
import type { Provenance } from "../../models/provenance.ts";
import type { ModelFacts, WarmUp } from "../../models/types.ts";
import type { FaultConfig } from "../../tool-protocol/faults.ts";
import { type ConversationRecord, joinRuns } from "../conversation/run-conversation.ts";
import type { Suite } from "../dataset/suite.ts";
import type { ItemScore } from "../scoring/score-types.ts";
import type { TaskRecord } from "./execute.ts";
import type { Shard } from "./matrix.ts";
import { RECORD_FORMAT, type RUN_FORMAT } from "./run-format.ts";
import type { SequentialOutcome, SequentialRequest } from "./until-significant.ts";

/** A model × configuration as run.json records it: models.yaml's configuration, resolved. */
export type ResolvedConfig = Configuration;

/** What the user asked for; stored in run.json so that a resume runs the same matrix. */
export interface BenchRequest {
  models: string[];
  /** Configuration names, or empty to use `matrix` (or the models file's default matrix). */
  configs: string[];
  matrix?: string;
  dataset: string[];
  filter: Record<string, string[]>;
  /** `--limit N`: a sample over the categories, drawn with the seed. */
  limit?: number;
  /** `--first N`: the first N items in file order. */
  first?: number;
  seed: number;
  repeats: number;
  timeoutS?: number;
  shard?: Shard;
  transport: "stdio" | "memory";
  record?: string;
  replay?: string;
  /** Fault injection on every mock server (`--faults`, or MOCK_MCP_FAULTS), on either transport. */
  faults?: FaultConfig;
  /** `--num-ctx N`: every request of a real Ollama model gets this window instead of the entry's (`auto`). */
  numCtx?: number;
  /** The servers' registry files (absolute paths, merged; default mock-servers/registry.json): a user's own servers. */
  registries?: string[];
  /** `--until-significant A,B`: items in a seeded random order, stopped once A and B are known to differ (or not). */
  untilSignificant?: SequentialRequest;
  /** `--shuffle SEED`: the tasks ran in this seed's order instead of the matrix's. */
  shuffle?: number;
  /** `--dry-run`: write tools answer with previews (dry-run.ts); end-state checks are not measured. */
  dryRun?: boolean;
  /** `--agent FILE…`: agent definitions (absolute paths), each a configuration of the run named by it. */
  agents?: string[];
  /** `--files A B…`: files injected into the agent definitions' prompts (absolute paths). */
  files?: string[];
  /** `--user-model M`: a conversation's user is played by this model (conversation/model-user.ts), not scripted. */
  userModel?: string;
}

/** Where the request cache was and how a session used it (src/models/request-cache.ts). */
export interface CacheUse {
  dir: string;
  /** Answers served from the cache (no request sent). */
  hits: number;
  /** Requests sent to the server (and stored). */
  misses: number;
  /** Requests that waited for an identical one in flight instead of going out. */
  coalesced: number;
  /** Stored answers found damaged: read as misses (those requests were sent, and counted in `misses`). */
  damaged?: number;
}

export interface RunModel {
  name: string;
  provider: string;
  id: string;
  /**
   * Whose answers these are: live, simulated, the stand-in server's, or replayed from a cassette; decided
   * when the run's models resolve (a run made before it is upgraded on read: run-format.ts).
   */
  provenance: Provenance;
  /** What the server said about itself and the model before the first item (real servers). */
  facts?: ModelFacts;
  /** The unscored request that loaded the model before measuring. */
  warmUp?: WarmUp;
  /** The context windows (num_ctx) the run's requests got, smallest first. */
  windowsUsed?: number[];
}

export interface RunManifest {
  /** The file's format (run-format.ts: an older run is upgraded when read). */
  format: typeof RUN_FORMAT;
  runId: string;
  request: BenchRequest;
  models: RunModel[];
  configs: string[];
  /** The resolved agent configuration of every model × configuration (CLI > model > config > defaults). */
  resolved: Record<string, Record<string, ResolvedConfig>>;
  /** `kind: conversations`: each item is a conversation (its records carry `conversation`). */
  dataset: { kind?: "conversations"; files: string[]; hash: string; items: number; itemIds: string[] };
  /** The dataset's suite (datasets/README.md "Suites"): its clock, servers and default exposure. */
  suite?: Suite;
  tasks: number;
  versions: Record<string, string>;
  /** A model's answers came from the simulator (in process, or replayed from its cassette). */
  simulated: boolean;
  startedAt: string;
  finishedAt?: string;
  /** Sessions of this run: the first, then one per resume (a merged run: every shard's). */
  sessions: {
    startedAt: string;
    finishedAt?: string;
    tasksRun: number;
    harnessFailures: number;
    /** Threads that ran tasks. */
    threads: number;
    /** The request cache this session used (absent: none, e.g. `--no-cache` or the simulator only). */
    cache?: CacheUse;
    /**
     * Records this resume took out to run their tasks again: items that went invalid on a server error
     * (counted in `tasksRun` once more; absent: none).
     */
    retried?: number;
  }[];
  /** `--until-significant`: the looks taken and the decision. */
  sequential?: SequentialOutcome;
  /** A run made by `results merge`: the runs it was made from. */
  mergedFrom?: string[];
  /**
   * How each server was reset between tasks (registry `reset`; `mock`: in-process). A `none` server's
   * results may depend on task order.
   */
  resets?: Record<string, ResetKind | "mock">;
}

/**
 * A record: one task, as readers get it (`withTrace`). A conversation's record (category `conversation`)
 * has the whole conversation's trace in `result`, every turn's state checks in `state`, the conversation
 * as one item score in `score` (conversation/item-score.ts), and its turns — each with its runs, checks
 * and score — in `conversation`. A BFCL multi-turn entry's record also has BFCL's verdict on it in `bfcl`.
 */
export type RunRecord = TaskRecord<ItemScore> & {
  /** The record's format (run-format.ts: an older record is upgraded when read). */
  format: typeof RECORD_FORMAT;
  category: string;
  conversation?: ConversationRecord;
  bfcl?: MultiTurnRunVerdict;
};

/**
 * A line of records.jsonl.gz: a `RunRecord`, each trace stored once. A conversation's record (category
 * `conversation`) leaves out `result`: its turns in `conversation`, each with its runs, checks and score,
 * hold the trace, and `withTrace` joins them back on read. Its `state` has every turn's state checks, its
 * `score` the conversation as one item score (conversation/item-score.ts).
 */
export type StoredRecord = Omit<RunRecord, "result"> & {
  /** The query's trace (absent on a conversation record: its turns' runs hold it). */
  result?: AgentResult;
};

/** A finished task as its records.jsonl.gz line stores it, in the current format. */
export function storedRecord(
  record: TaskRecord<ItemScore> & { conversation?: ConversationRecord },
  category: string,
): StoredRecord {
  if (!record.conversation) return { format: RECORD_FORMAT, ...record, category };
  const { result: _joined, ...rest } = record;
  return { format: RECORD_FORMAT, ...rest, category };
}

/** A stored record with its whole trace: a conversation's turns' runs joined in order. */
export function withTrace(record: StoredRecord): RunRecord {
  if (record.result) return record as RunRecord;
  return { ...record, result: joinRuns((record.conversation?.turns ?? []).flatMap((turn) => turn.runs)) };
}
