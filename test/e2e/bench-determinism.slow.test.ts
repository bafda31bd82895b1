/**
 * Determinism: two runs of one matrix with the same seed produce identical records except timing
 * fields (startedAt, taskMs, every *Ms, timings, the latency score: record-content.ts), even with a
 * different concurrency or on worker threads; another seed gives different records on a noisy profile.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runBench } from "../../src/bench/run/bench.ts";
import { RUN_FILES, readJsonl } from "../../src/bench/run/store.ts";
import type { SpanLine } from "../../src/trace/jsonl-exporter.ts";
import { benchRequest, recordContents } from "../support/bench-run.ts";

const root = mkdtempSync(join(tmpdir(), "onsetlab-determinism-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// 12 items × the default matrix's 9 configurations: every strategy and ablation, ~108 tasks a run
// --first: the same items under both seeds (a --limit sample is drawn with the seed)
const request = benchRequest({ models: ["sim:slm-3b"], matrix: "default", first: 12, seed: 7 });

describe("bench determinism", () => {
  it("gives identical records for the same seed, and different ones for another seed", async () => {
    const first = await runBench({ request, resultsRoot: root, concurrency: 4 });
    const second = await runBench({ request, resultsRoot: root, concurrency: 1 });
    const reseeded = await runBench({ request: { ...request, seed: 8 }, resultsRoot: root, concurrency: 4 });
    const threaded = await runBench({ request, resultsRoot: root, threads: 2 });

    const a = recordContents(first.dir);
    const b = recordContents(second.dir);
    const c = recordContents(reseeded.dir);
    expect(a).toHaveLength(first.manifest.tasks);
    expect(new Set(a.map((record) => record.key)).size).toBe(a.length);
    expect(b).toEqual(a);
    expect(recordContents(threaded.dir)).toEqual(a);
    // every query span of every thread hangs under the one run span
    const spans = readJsonl<SpanLine>(join(threaded.dir, RUN_FILES.traces)).rows;
    const run = spans.filter((span) => span.name === "run");
    expect(run).toHaveLength(1);
    const queries = spans.filter((span) => span.name === "query");
    expect(queries).toHaveLength(a.length);
    expect(new Set(queries.map((span) => `${span.traceId}/${span.parentSpanId}`))).toEqual(
      new Set([`${run[0]!.traceId}/${run[0]!.spanId}`]),
    );

    // the same keys, but the simulator's noise moved with the seed
    expect(c.map((record) => record.key)).toEqual(a.map((record) => record.key));
    const changed = c.filter((record, index) => JSON.stringify(record.content) !== JSON.stringify(a[index]!.content));
    expect(changed.length).toBeGreaterThan(a.length / 10);
    // the summaries agree too (their row order follows finishing order, so compare by configuration)
    const successByConfig = (rows: typeof first.summary.rows) =>
      Object.fromEntries(rows.map((row) => [row.config, row.taskSuccess]));
    expect(successByConfig(second.summary.rows)).toEqual(successByConfig(first.summary.rows));
  }, 180_000);
});
