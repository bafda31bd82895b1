/**
 * The run files' format versions, and the one place where an older run is read as the current one.
 * run.json, summary.json and every record carry `format`; a file without one is format 1 (everything
 * written before the files were versioned). Every reader goes through the upgrades here, so the rest of
 * the harness sees only the current shape. A format newer than this harness knows is bad input.
 *
 * Format 1 → 2:
 * - run.json: `request.registry` (one registry file, before `--registry` could be repeated) becomes
 *   `request.registries`; a session without `threads` (before threads) ran on one; a model without
 *   `provenance` (before it was stored) has it read from the `simulated`, `standin` and `replayedFrom`
 *   it carried instead, which go; a resolved configuration without `toolSelection` (before the model could
 *   select the tools shown) ranked them.
 * - summary.json: a row without `invalid` (before items could be invalid) had none; a row's latency
 *   without `loadMsPerItem` (before load time was kept apart) has it unknown (null); a failure table without
 *   a kind (before `asked_needlessly`) counted none of it.
 * - records: the agent's configuration in a trace (`result.config`, and each run's of a conversation's
 *   turns) has no `exposure`, a setting of the
 *   bench the agent never used (the record's `session.exposure` keeps it); one without `toolSelection`
 *   ranked the tools, as run.json's.
 */
import type { AgentConfig, ToolSelection } from "../../agent/types.ts";
import type { Provenance } from "../../models/provenance.ts";
import { INVALID_REASONS } from "../../models/types.ts";
import { FAILURE_KINDS, type FailureKind } from "../scoring/score-types.ts";
import type { RunSummary } from "./compare-configs.ts";
import { forEachJsonl, type RowLocation, readRow } from "./jsonl-read.ts";
import type { RunManifest, RunModel, StoredRecord } from "./run-file-types.ts";
import { ResultsError } from "./store-errors.ts";

export const RUN_FORMAT = "onsetlab-run/2";
export const SUMMARY_FORMAT = "onsetlab-summary/2";
export const RECORD_FORMAT = "onsetlab-record/2";

/** A run file as it may have been written by any format this harness reads. */
type Stored<T> = Omit<T, "format"> & { format?: string };

/** The format 1 fields that format 2 renamed. */
interface RequestV1 {
  registry?: string;
}

/** A format 1 model: before `provenance` was stored, these said whose answers they were. */
interface ModelV1 {
  provenance?: Provenance;
  simulated?: boolean;
  standin?: string;
  replayedFrom?: string;
}

/** run.json as the current format, whatever format `file` was written in. */
export function upgradeManifest(manifest: Stored<RunManifest>, file: string): RunManifest {
  if (manifest.format === RUN_FORMAT) return manifest as RunManifest;
  known(manifest.format, RUN_FORMAT, file);
  const { format: _none, ...rest } = manifest;
  const { registry, ...request } = manifest.request as RunManifest["request"] & RequestV1;
  return {
    format: RUN_FORMAT,
    ...rest,
    request: { ...request, ...(registry && !request.registries ? { registries: [registry] } : {}) },
    models: manifest.models.map(upgradeModel),
    resolved: Object.fromEntries(
      Object.entries(manifest.resolved).map(([model, configs]) => [
        model,
        Object.fromEntries(Object.entries(configs).map(([name, config]) => [name, withToolSelection(config)])),
      ]),
    ),
    sessions: manifest.sessions.map((session) => ({ ...session, threads: session.threads ?? 1 })),
  };
}

/** Before `toolSelection`, the tools shown were always the ranking's top N. */
function withToolSelection<C extends Omit<AgentConfig, "toolSelection"> & { toolSelection?: ToolSelection }>(
  config: C,
): C & { toolSelection: ToolSelection } {
  return { ...config, toolSelection: config.toolSelection ?? "ranked" };
}

function upgradeModel(model: Omit<RunModel, "provenance"> & ModelV1): RunModel {
  const { simulated, standin, replayedFrom, provenance, ...rest } = model;
  return { ...rest, provenance: provenance ?? earlierProvenance(simulated === true, standin, replayedFrom) };
}

function earlierProvenance(simulated: boolean, standin?: string, replayedFrom?: string): Provenance {
  if (replayedFrom !== undefined) return { kind: "replayed", from: replayedFrom, simulated };
  if (simulated) return { kind: "simulated" };
  return standin === undefined ? { kind: "live" } : { kind: "stand-in", profile: standin };
}

/** summary.json as the current format, whatever format `file` was written in. */
export function upgradeSummary(summary: Stored<RunSummary>, file: string): RunSummary {
  if (summary.format === SUMMARY_FORMAT) return summary as RunSummary;
  known(summary.format, SUMMARY_FORMAT, file);
  const { format: _none, ...rest } = summary;
  return {
    format: SUMMARY_FORMAT,
    ...rest,
    rows: summary.rows.map((row) => ({
      ...row,
      invalid: row.invalid ?? noneInvalid(),
      latency: { ...row.latency, loadMsPerItem: row.latency.loadMsPerItem ?? null },
    })),
    failures: summary.failures.map((row) => ({
      ...row,
      primary: everyKind(row.primary),
      any: everyKind(row.any),
      recovered: everyKind(row.recovered),
    })),
  };
}

/**
 * A record as the current format. Not checked here: a line that is not a record passes as it is, for its
 * reader to name.
 */
export function upgradeRecord(record: Stored<StoredRecord>, file: string): StoredRecord {
  if (typeof record !== "object" || record === null || record.format === RECORD_FORMAT) return record as StoredRecord;
  known(record.format, RECORD_FORMAT, file);
  const { format: _none, result, conversation, ...rest } = record;
  return {
    format: RECORD_FORMAT,
    ...rest,
    ...(result === undefined ? {} : { result: upgradeTrace(result) }),
    // a conversation's turns hold its runs' traces
    ...(conversation === undefined
      ? {}
      : {
          conversation: {
            ...conversation,
            turns: conversation.turns?.map((turn) => ({ ...turn, runs: turn.runs?.map(upgradeTrace) })),
          },
        }),
  } as StoredRecord;
}

/** A trace's agent configuration without the bench's exposure, with the tool selection it ran. */
function upgradeTrace<T>(result: T): T {
  const trace = result as { config?: unknown };
  if (typeof trace?.config !== "object" || trace.config === null) return result;
  const { exposure: _bench, ...config } = trace.config as AgentConfig & { exposure?: unknown };
  return { ...result, config: withToolSelection(config) };
}

/** Every record of a run's records file, as the current format (forEachJsonl's torn end and errors). */
export function forEachRunRecord(
  file: string,
  visit: (record: StoredRecord, line: number, location: RowLocation) => void,
  from = 0,
): number {
  return forEachJsonl<Stored<StoredRecord>>(
    file,
    (record, line, location) => visit(upgradeRecord(record, file), line, location),
    from,
  );
}

/** The record at `location` of a run's records file, as the current format. */
export function readRunRecord(file: string, location: RowLocation): StoredRecord {
  return upgradeRecord(readRow<Stored<StoredRecord>>(file, location), file);
}

function everyKind(counts: Partial<Record<FailureKind, number>>): Record<FailureKind, number> {
  return Object.fromEntries(FAILURE_KINDS.map((kind) => [kind, counts[kind] ?? 0])) as Record<FailureKind, number>;
}

function noneInvalid(): RunSummary["rows"][number]["invalid"] {
  return Object.fromEntries(INVALID_REASONS.map((reason) => [reason, 0])) as RunSummary["rows"][number]["invalid"];
}

/** Format 1 (no version) and the current one are read; any other is a file this harness cannot read. */
function known(format: string | undefined, current: string, file: string): void {
  if (format === undefined) return;
  throw new ResultsError(
    "RESULTS_FORMAT",
    `${file}: format ${format}, but this harness reads ${current} and older: update the harness to read it`,
    { context: { file, format } },
  );
}
