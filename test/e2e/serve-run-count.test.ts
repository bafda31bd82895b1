/**
 * `GET /runs` (HarnessService.listRuns) counts the records of a run that is not finished without building
 * its records index: a bench under way in this process, one under way in another process (run.json with
 * no finishedAt, no summary, records still being appended), and a finished one (its summary's count).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { runBench } from "../../src/bench/run/bench.ts";
import { readManifest } from "../../src/bench/run/manifest.ts";
import type { RunRecord } from "../../src/bench/run/run-file-types.ts";
import { JsonlGzAppender, RUN_FILES, writeJsonAtomic } from "../../src/bench/run/store.ts";
import { RecordIndex } from "../../src/serve/record-index.ts";
import { HarnessService, type RunListEntry } from "../../src/serve/service.ts";
import { benchRequest, strictRecordLines } from "../support/bench-run.ts";

const roots: string[] = [];
const newRoot = () => {
  const root = mkdtempSync(join(tmpdir(), "serve-run-count-"));
  roots.push(root);
  return root;
};
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});
afterEach(() => vi.restoreAllMocks());

const entryOf = (service: HarnessService, runId: string): RunListEntry =>
  service.listRuns().find((entry) => entry.runId === runId)!;

describe("GET /runs counts records without the records index", () => {
  it("a bench under way in this process: the records on disk at each moment, then the summary's count", async () => {
    const service = new HarnessService({ resultsRoot: newRoot() });
    const indexRows = vi.spyOn(RecordIndex.prototype, "rows");
    // 4 configurations × 40 items: gzip members (64 records, or what a flush timer finds) reach the disk while
    // it runs. Which counts a moment sees depends on when the timer fires on a loaded machine, so the test
    // checks what holds at every moment: the listing counts exactly the records on disk, never more than done.
    const runId = await service.startBench({
      models: ["sim:oracle"],
      configs: ["onsetlab", "onsetlab-plus", "rewoo", "native"],
      limit: 40,
    });
    const dir = join(service.resultsRoot, runId);
    const seen: { done: number; records: number; onDisk: number; running: boolean }[] = [];
    await new Promise<void>((finished) => {
      // the first tasks may finish before this listens: the moments seen are those after
      service.watchRun(runId, (event) => {
        if (event.type === "finished") return finished();
        if (event.progress.done % 10 !== 0) return;
        const entry = entryOf(service, runId);
        seen.push({
          done: event.progress.done,
          records: entry.records,
          onDisk: strictRecordLines(dir).length,
          running: entry.running,
        });
      });
    });
    expect(seen.length).toBeGreaterThanOrEqual(3);
    for (const moment of seen) {
      expect(moment).toMatchObject({ records: moment.onDisk, running: true });
      expect(moment.records).toBeLessThanOrEqual(moment.done);
    }
    // at most one member (64 records) is pending: from 70 records done, some are on disk before the end
    expect(seen.some((moment) => moment.done >= 70 && moment.records > 0 && moment.records < 160)).toBe(true);
    const done = entryOf(service, runId);
    expect(done).toMatchObject({ running: false, records: 160, tasks: 160 });
    expect(done.finishedAt).toBeDefined();
    expect(service.benchStatus(runId)).toMatchObject({ finished: true, done: 160, total: 160 });
    expect(indexRows).not.toHaveBeenCalled();
  });

  it("a run under way in another process: each listing counts what was appended since", async () => {
    const root = newRoot();
    const bench = await runBench({
      request: benchRequest({ models: ["sim:oracle"], configs: ["onsetlab"], matrix: undefined, limit: 5 }),
      resultsRoot: root,
    });
    const finished = new HarnessService({ resultsRoot: root });
    expect(entryOf(finished, bench.runId)).toMatchObject({ records: 5, tasks: 5, running: false });

    // the same run as a bench in another process leaves it part way: no finishedAt, no summary yet
    const { finishedAt: _finishedAt, ...manifest } = readManifest(bench.dir);
    writeJsonAtomic(join(bench.dir, RUN_FILES.run), { ...manifest, tasks: 9 });
    rmSync(join(bench.dir, RUN_FILES.summary));
    const records = strictRecordLines(bench.dir);
    const service = new HarnessService({ resultsRoot: root });
    const indexRows = vi.spyOn(RecordIndex.prototype, "rows");
    expect(entryOf(service, bench.runId)).toMatchObject({ records: 5, tasks: 9, running: false });

    const appender = new JsonlGzAppender(join(bench.dir, RUN_FILES.records), { rows: 2, delayMs: 60_000 });
    const more = (index: number): RunRecord => ({ ...records[index % records.length]!, key: `more-${index}` });
    appender.append(more(0));
    // one record pending in the appender, not on disk: not counted
    expect(entryOf(service, bench.runId).records).toBe(5);
    appender.append(more(1));
    expect(entryOf(service, bench.runId).records).toBe(7);
    appender.append(more(2));
    appender.close();
    expect(entryOf(service, bench.runId).records).toBe(8);
    expect(strictRecordLines(bench.dir)).toHaveLength(8);
    expect(service.benchStatus(bench.runId)).toMatchObject({ running: false, finished: false, done: 8, total: 9 });
    expect(indexRows).not.toHaveBeenCalled();
  });
});
