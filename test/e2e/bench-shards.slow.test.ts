/**
 * Shards: `--shard 1/2` and `--shard 2/2` merged with `results merge` equal the unsharded run (timing
 * aside); runs of another matrix or dataset, and conflicting records, are refused with one line and
 * exit code 2, leaving nothing behind; `results list` reports every run and how far it got.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BenchOutcome, runBench } from "../../src/bench/run/bench.ts";
import { mergeRuns, STAGING_PREFIX } from "../../src/bench/run/merge.ts";
import { withoutTiming } from "../../src/bench/run/record-content.ts";
import type { RunManifest } from "../../src/bench/run/run-file-types.ts";
import { RUN_FILES, readJson } from "../../src/bench/run/store.ts";
import { readRunLines, writeRunLines } from "../../src/bench/run/testing/run-lines.ts";
import type { RunListing } from "../../src/cli/results.ts";
import { benchRequest, recordContents, runCli, strictRecordLines } from "../support/bench-run.ts";

const root = mkdtempSync(join(tmpdir(), "onsetlab-shards-"));
const env = { ONSETLAB_RESULTS_DIR: root };
afterAll(() => rmSync(root, { recursive: true, force: true }));

// 9 items (an odd count: the shards are unequal) × 3 configurations
const request = benchRequest({ models: ["sim:slm-3b"], configs: ["onsetlab", "rewoo", "native"], limit: 9, seed: 5 });
let whole: BenchOutcome;
let first: BenchOutcome;
let second: BenchOutcome;

beforeAll(async () => {
  whole = await runBench({ request, resultsRoot: root });
  first = await runBench({ request: { ...request, shard: { index: 1, count: 2 } }, resultsRoot: root });
  second = await runBench({ request: { ...request, shard: { index: 2, count: 2 } }, resultsRoot: root });
}, 120_000);

/** A copy of a run under a new id, its run.json changed by `edit` (what a run of another matrix would hold). */
function copyRun(source: BenchOutcome, id: string, edit: (manifest: RunManifest) => void = () => {}): string {
  const dir = join(root, id);
  cpSync(source.dir, dir, { recursive: true });
  const manifest = readJson<RunManifest>(join(dir, RUN_FILES.run), "run.json");
  edit(manifest);
  writeFileSync(join(dir, RUN_FILES.run), JSON.stringify({ ...manifest, runId: id }));
  return id;
}

function runIds(): string[] {
  return readdirSync(root).sort();
}

describe("results merge", () => {
  it("merges two shards into a run equal to the unsharded one", async () => {
    expect(first.manifest.tasks + second.manifest.tasks).toBe(whole.manifest.tasks);
    const merged = await runCli(["results", "merge", first.runId, second.runId, "--out", "merged-ok", "--json"], env);
    expect(merged.stderr).toBe("");
    expect(merged.code).toBe(0);
    expect(JSON.parse(merged.stdout)).toMatchObject({
      runId: "merged-ok",
      records: whole.manifest.tasks,
      planned: whole.manifest.tasks,
      duplicates: 0,
      complete: true,
    });

    const dir = join(root, "merged-ok");
    expect(recordContents(dir)).toEqual(recordContents(whole.dir));
    const manifest = readJson<RunManifest>(join(dir, RUN_FILES.run), "run.json");
    expect(manifest.request).toEqual(whole.manifest.request);
    expect(manifest.request.shard).toBeUndefined();
    expect(manifest.mergedFrom).toEqual([first.runId, second.runId]);
    expect(manifest.sessions).toEqual([...first.manifest.sessions, ...second.manifest.sessions]);
    expect(manifest.finishedAt).toBeDefined();

    // the recomputed summary is the unsharded run's, timing aside (rows compared by configuration)
    const summary = readJson<typeof whole.summary>(join(dir, RUN_FILES.summary), "summary.json");
    const byConfig = (rows: typeof whole.summary.rows) =>
      Object.fromEntries(rows.map((row) => [row.config, withoutTiming(row)]));
    expect(byConfig(summary.rows)).toEqual(byConfig(whole.summary.rows));
    expect(summary.records).toBe(whole.manifest.tasks);

    // traces of both shards, one JSON span per line
    const spans = readRunLines(dir, "traces");
    const shardSpans = [first, second].map((run) => readRunLines(run.dir, "traces").length);
    expect(spans).toHaveLength(shardSpans[0]! + shardSpans[1]!);
  });

  it("keeps one record per key when a shard is given twice over (the same content)", async () => {
    const again = copyRun(first, "shard-1-again");
    const merged = mergeRuns({ runIds: [first.runId, again, second.runId], outId: "merged-dup", root });
    expect(merged).toMatchObject({ records: whole.manifest.tasks, duplicates: first.manifest.tasks, complete: true });
    expect(strictRecordLines(merged.dir)).toHaveLength(whole.manifest.tasks);
  });

  it("makes an incomplete run of shards that miss part of the matrix, and --resume completes it", async () => {
    const copy = copyRun(first, "shard-1-copy");
    const merged = mergeRuns({ runIds: [first.runId, copy], outId: "merged-partial", root });
    expect(merged).toMatchObject({ records: first.manifest.tasks, complete: false });
    expect(merged.manifest.tasks).toBe(whole.manifest.tasks);
    expect(readJson<RunManifest>(join(root, "merged-partial", RUN_FILES.run), "run.json").finishedAt).toBeUndefined();

    const resumed = await runBench({ request, resume: "merged-partial", resultsRoot: root });
    expect(resumed.skipped).toBe(first.manifest.tasks);
    expect(resumed.manifest.finishedAt).toBeDefined();
    expect(recordContents(resumed.dir)).toEqual(recordContents(whole.dir));
  });

  it("refuses other matrices, other datasets, conflicting records, a taken --out and unknown runs", async () => {
    const otherSeed = copyRun(second, "other-seed", (manifest) => {
      manifest.request.seed = 6;
    });
    const otherDataset = copyRun(second, "other-dataset", (manifest) => {
      manifest.dataset.hash = "0000000000000000";
    });
    const tampered = copyRun(first, "tampered");
    // the last line: a visitor's error there must not pass for a torn append
    const lines = readRunLines(join(root, tampered), "records");
    const record = JSON.parse(lines.at(-1)!) as { key: string; result: { answer: string } };
    record.result.answer = `${record.result.answer} (edited)`;
    writeRunLines(join(root, tampered), "records", [...lines.slice(0, -1), JSON.stringify(record)]);

    const cases: [string[], RegExp | string][] = [
      [
        [first.runId, otherSeed],
        `error: runs ${first.runId} and ${otherSeed} are not shards of one matrix: seed 5 vs 6\n`,
      ],
      [
        [first.runId, otherDataset],
        new RegExp(`^error: runs ${first.runId} and ${otherDataset} were made on different datasets .*\\n$`),
      ],
      [
        [first.runId, tampered],
        `error: key ${record.key} has different records in runs ${first.runId} and ${tampered}; merge only shards of one run\n`,
      ],
      [[first.runId, "no-such-run"], /^error: .*no-such-run.*no run\.json.*\n$/],
    ];
    const before = runIds();
    const outcomes = await Promise.all([
      ...cases.map(([runs], index) => runCli(["results", "merge", ...runs, "--out", `refused-${index}`], env)),
      runCli(["results", "merge", first.runId, second.runId, "--out", whole.runId], env),
    ]);
    cases.forEach(([, stderr], index) => {
      expect(outcomes[index]).toMatchObject({ code: 2, stdout: "" });
      if (typeof stderr === "string") expect(outcomes[index]?.stderr).toBe(stderr);
      else expect(outcomes[index]?.stderr).toMatch(stderr);
    });
    expect(outcomes.at(-1)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^error: --out .* already exists; pick another id\n$/),
    });
    // nothing half-merged left behind
    expect(runIds()).toEqual(before);
  });
});

describe("results merge, stopped midway", () => {
  /** What a merge killed midway leaves: its staging folder with a partial records.jsonl.gz and its pid. */
  function leftover(outId: string, pid: number): string {
    const staging = join(root, `${STAGING_PREFIX}${outId}`);
    mkdirSync(staging);
    writeFileSync(join(staging, "merge.pid"), `${pid}\n`);
    writeFileSync(join(staging, RUN_FILES.records), readFileSync(join(first.dir, RUN_FILES.records)).subarray(0, 500));
    return staging;
  }

  it("removes what a killed merge left, says so, and the same merge then succeeds", async () => {
    // a pid that was used and is gone: the merge that had it is not running
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    const staging = leftover("merged-after-kill", gone);
    const merged = await runCli(["results", "merge", first.runId, second.runId, "--out", "merged-after-kill"], env);
    expect(merged.code).toBe(0);
    expect(merged.stderr).toBe(`removed ${staging}: what a merge left when it was stopped midway\n`);
    expect(existsSync(staging)).toBe(false);
    expect(recordContents(join(root, "merged-after-kill"))).toEqual(recordContents(whole.dir));
    expect(runIds()).not.toContain(`${STAGING_PREFIX}merged-after-kill`);
  });

  it("names the folder of a merge that is still running and leaves it alone", () => {
    const staging = leftover("merged-busy", process.pid);
    try {
      expect(() => mergeRuns({ runIds: [first.runId, second.runId], outId: "merged-busy", root })).toThrow(
        `--out merged-busy: another merge (pid ${process.pid}) is writing ${staging}; wait for it, or delete that folder if it is not running`,
      );
      expect(existsSync(staging)).toBe(true);
      expect(existsSync(join(root, "merged-busy"))).toBe(false);
    } finally {
      rmSync(staging, { recursive: true });
    }
  });
});

describe("results list", () => {
  it("lists every run, newest first, with records done / planned and how to resume an incomplete one", async () => {
    const incomplete = copyRun(whole, "00000000-000000-incomplete", (manifest) => {
      manifest.finishedAt = undefined;
    });
    writeRunLines(join(root, incomplete), "records", readRunLines(join(root, incomplete), "records").slice(0, 5));

    const [listed, table] = await Promise.all([
      runCli(["results", "list", "--json"], env),
      runCli(["results", "list"], env),
    ]);
    expect(listed.code).toBe(0);
    const runs = JSON.parse(listed.stdout) as RunListing[];
    expect(runs.map((run) => run.id)).toEqual(runIds().reverse());
    expect(runs.find((run) => run.id === whole.runId)).toMatchObject({
      models: ["sim:slm-3b"],
      configs: ["onsetlab", "rewoo", "native"],
      items: 9,
      records: whole.manifest.tasks,
      planned: whole.manifest.tasks,
      simulated: true,
      finishedAt: whole.manifest.finishedAt,
    });
    expect(runs.find((run) => run.id === first.runId)).toMatchObject({ shard: "1/2", planned: first.manifest.tasks });
    expect(runs.find((run) => run.id === "merged-ok")?.mergedFrom).toEqual([first.runId, second.runId]);
    expect(runs.find((run) => run.id === incomplete)).toMatchObject({ records: 5, finishedAt: null });

    expect(table.stdout).toMatch(new RegExp(`^${incomplete} .* incomplete *$`, "m"));
    expect(table.stdout).toContain(`incomplete, to finish: pnpm bench --resume ${incomplete}`);
    expect(table.stdout).toContain(`${whole.manifest.tasks}/${whole.manifest.tasks}`);
    expect(
      table.stdout.split("\n").filter((line) => line.length > 100),
      table.stdout,
    ).toEqual([]);
    expect(table.stdout).toMatch(/^run +sim +configs +items +records +finished/);
    expect(table.stdout).toMatch(new RegExp(`^${whole.runId} +yes `, "m"));
  });
});
