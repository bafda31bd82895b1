/**
 * Record → replay at the bench level (issue 5): `runBench` with sim:slm-3b and `record` on a small matrix
 * (ReWOO, ReAct, the router's pipeline, the native and jsonl baselines) over a spread of dataset items,
 * then the same request with `replay`: every record is byte for byte the recorded one once the
 * wall-clock fields are removed, and the replayed run says where its answers came from. Replaying the
 * cassette against another configuration misses, and the miss names the stage and the request hash.
 *
 * Wall-clock fields (measured by the harness on this machine, so they differ between any two runs):
 * - record: `startedAt`, `taskMs`;
 * - `result.timings` (the agent's total / model / tools time);
 * - `result.modelCalls[].startMs`, `.durationMs` — the provider's own `timings` and `usage` stay: the
 *   cassette replays them;
 * - `result.toolCalls[].startMs`, `.durationMs`, `.attempts[].durationMs`;
 * - `score.latency.totalMs`, `.modelMs`, `.toolsMs`, `.overheadMs`, `.modelCallMs` (computed from the
 *   above; its `promptEvalMs`, `evalMs`, `loadMs` are the provider's and stay).
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDataset } from "../../src/bench/dataset/load.ts";
import { type BenchOutcome, runBench } from "../../src/bench/run/bench.ts";
import type { RunSummary } from "../../src/bench/run/compare-configs.ts";
import { ModelOutageError } from "../../src/bench/run/model-outage.ts";
import type { BenchRequest, RunRecord } from "../../src/bench/run/run-files.ts";
import { RUN_FILES, readJson, readJsonl } from "../../src/bench/run/store.ts";
import { loadCassette } from "../../src/models/cassette.ts";
import { isSimulatedProvenance, storedProvenance } from "../../src/models/provenance.ts";
import type { ModelStage } from "../../src/models/types.ts";

const MODEL = "sim:slm-3b";
const CONFIGS = ["onsetlab", "rewoo", "react", "native", "jsonl"];
/** Every 20th item: all eight servers, every category. */
const ITEM_IDS = loadDataset()
  .map((loaded) => loaded.item.id)
  .filter((_, index) => index % 20 === 0);

const root = mkdtempSync(join(tmpdir(), "record-replay-"));
const cassette = join(root, "slm-3b.cassette.jsonl");

function request(configs: string[], mode: { record: string } | { replay: string }): BenchRequest {
  return {
    models: [MODEL],
    configs,
    dataset: [],
    filter: { id: ITEM_IDS },
    seed: 1,
    repeats: 1,
    transport: "memory",
    ...mode,
  };
}

/** Summary fields computed from wall-clock time. */
const WALL_CLOCK_SUMMARY = ["latency", "p50Ms", "p95Ms"];

function records(outcome: BenchOutcome): RunRecord[] {
  return readJsonl<RunRecord>(join(outcome.dir, RUN_FILES.records)).rows;
}

/** A record as canonical JSON without its wall-clock fields (the list is in the header). */
function withoutWallClock(record: RunRecord): string {
  const { startedAt: _startedAt, taskMs: _taskMs, ...rest } = structuredClone(record);
  const { timings: _timings, ...result } = rest.result;
  const {
    totalMs: _totalMs,
    modelMs: _modelMs,
    toolsMs: _toolsMs,
    overheadMs: _overheadMs,
    modelCallMs: _modelCallMs,
    ...latency
  } = rest.score.latency;
  return JSON.stringify({
    ...rest,
    result: {
      ...result,
      modelCalls: result.modelCalls.map(({ startMs: _s, durationMs: _d, ...call }) => call),
      toolCalls: result.toolCalls.map(({ startMs: _s, durationMs: _d, ...call }) => ({
        ...call,
        attempts: call.attempts.map(({ durationMs: _a, ...attempt }) => attempt),
      })),
    },
    score: { ...rest.score, latency },
  });
}

function byKey(rows: RunRecord[]): Map<string, string> {
  return new Map(rows.map((record) => [record.key, withoutWallClock(record)]));
}

let recorded: BenchOutcome;
let replayed: BenchOutcome;

beforeAll(async () => {
  recorded = await runBench({ request: request(CONFIGS, { record: cassette }), resultsRoot: root });
  replayed = await runBench({ request: request(CONFIGS, { replay: cassette }), resultsRoot: root });
}, 300_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe(`${MODEL} recorded and replayed through runBench (${CONFIGS.join(", ")} × ${ITEM_IDS.length} items)`, () => {
  it("records a realistic run: every task, every configuration's model stages, mistakes and failures", () => {
    const rows = records(recorded);
    expect(recorded.failures).toEqual([]);
    expect(rows).toHaveLength(CONFIGS.length * ITEM_IDS.length);
    const stages = new Set(rows.flatMap((record) => record.result.modelCalls.map((call) => call.stage)));
    expect([...stages].sort()).toEqual(
      expect.arrayContaining(["jsonl", "native", "planner", "react", "router", "solver"] satisfies ModelStage[]),
    );
    expect(rows.some((record) => !record.score.taskSuccess)).toBe(true);
    expect(rows.some((record) => record.score.taskSuccess)).toBe(true);
    // every model call of the run is in the cassette, and no model call failed
    const calls = rows.reduce((sum, record) => sum + record.result.modelCalls.length, 0);
    expect(loadCassette(cassette)).toHaveLength(calls);
    expect(rows.flatMap((record) => record.result.modelCalls.filter((call) => call.error))).toEqual([]);
  });

  it("replays every record byte for byte once the wall-clock fields are removed", () => {
    expect(replayed.failures).toEqual([]);
    const live = byKey(records(recorded));
    const again = byKey(records(replayed));
    expect([...again.keys()].sort()).toEqual([...live.keys()].sort());
    for (const [key, record] of live) expect(again.get(key), key).toBe(record);
  });

  it("needs the wall-clock fields removed: the raw records do differ", () => {
    const raw = (outcome: BenchOutcome) =>
      new Map(records(outcome).map((record) => [record.key, JSON.stringify(record)]));
    const live = raw(recorded);
    const again = raw(replayed);
    expect([...live].filter(([key, record]) => again.get(key) !== record).length).toBeGreaterThan(0);
  });

  // summary.json lists groups in the order their first record finished (tasks run item-major on several
  // workers), and orients each paired comparison the same way: compare the groups as a set, without
  // the comparisons' a/b orientation (reported to the lead).
  it("reproduces every rate and interval of the summary, latency aside", () => {
    const groups = (outcome: BenchOutcome) => {
      const { rows, byCategory, byServer, failures, routing, planner } = outcome.summary;
      return JSON.stringify(
        [rows, byCategory, byServer, failures, routing, planner].map((list) =>
          list
            .map((entry) =>
              JSON.stringify(entry, (key, value) => (WALL_CLOCK_SUMMARY.includes(key) ? undefined : value)),
            )
            .sort(),
        ),
      );
    };
    expect(replayed.summary.records).toBe(recorded.summary.records);
    expect(groups(replayed)).toBe(groups(recorded));
  });

  it("says in run.json and summary.json which cassette the replayed run came from", () => {
    const replay = { kind: "replayed", from: cassette, simulated: true };
    expect(replayed.summary.provenance).toEqual([{ model: MODEL, provenance: replay }]);
    expect(readJson<RunSummary>(join(replayed.dir, RUN_FILES.summary), "summary.json").provenance).toEqual([
      { model: MODEL, provenance: replay },
    ]);
    expect(replayed.manifest.request.replay).toBe(cassette);
    expect(replayed.manifest.models).toEqual([expect.objectContaining({ name: MODEL, provenance: replay })]);
    expect(recorded.summary.provenance).toEqual([{ model: MODEL, provenance: { kind: "simulated" } }]);
    expect(recorded.summary.simulated).toBe(true);
  });

  // The cassette is keyed under the provider id (`sim:slm-3b`): a replay that hits only ever returns the
  // simulator's answers, so its numbers stay labelled simulated.
  it("keeps the replayed simulator run labelled simulated", () => {
    expect(replayed.summary.simulated).toBe(true);
    expect(isSimulatedProvenance(storedProvenance(replayed.manifest.models[0]!))).toBe(true);
  });
});

describe("replaying the cassette against another configuration", () => {
  it("stops the run at the first request it never recorded, naming the stage and the request hash", async () => {
    // filter-3 shows the planner and ReAct three tools instead of eight: prompts the cassette never saw.
    const missed = runBench({ request: request(["filter-3"], { replay: cassette }), resultsRoot: root });
    const error = (await missed.catch((caught: unknown) => caught)) as Error;
    expect(error).toBeInstanceOf(ModelOutageError);
    expect(error.message).toMatch(/has no answer for the \w+ request [0-9a-f]{64} /);
    const hash = /request ([0-9a-f]{64})/.exec(error.message)![1]!;
    expect(new Set(loadCassette(cassette).map((entry) => entry.key)).has(hash)).toBe(false);
  }, 300_000);
});
