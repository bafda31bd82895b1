/**
 * Benchmarking a user's own MCP servers: the official `@modelcontextprotocol/server-filesystem` and
 * `server-memory` from npm (devDependencies), each reset by a fresh fixture copy per task, over a small
 * dataset with tool-call state checks (test/fixtures/byo/, the README's worked example). The oracle scores
 * every item; two other task orders (`--shuffle`) give the same scores item by item; the fixture folders
 * are never written to. A `reset: none` server over one shared folder shows why: there the order decides.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runBench } from "../../src/bench/run/bench.ts";
import { withoutTiming } from "../../src/bench/run/record-content.ts";
import type { RunManifest, RunRecord } from "../../src/bench/run/run-file-types.ts";
import { RUN_FILES, readJsonl } from "../../src/bench/run/store.ts";
import { benchRequest, REPO_ROOT } from "../support/bench-run.ts";
import { folderDigest } from "../support/folder-digest.ts";

const FIXTURE = join(REPO_ROOT, "test/fixtures/byo");
const REGISTRY = join(FIXTURE, "registry.json");
const DATASET = join(FIXTURE, "dataset.jsonl");
const root = mkdtempSync(join(tmpdir(), "onsetlab-byo-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const request = (changes: Parameters<typeof benchRequest>[0]) =>
  benchRequest({
    models: ["sim:oracle"],
    configs: ["onsetlab-plus", "native"],
    matrix: undefined,
    dataset: [DATASET],
    registries: [REGISTRY],
    ...changes,
  });

/** Per task key, what was scored: the score and the state checks' outcomes (no timings). */
function scoresOf(dir: string): Record<string, unknown> {
  const { rows } = readJsonl<RunRecord>(join(dir, RUN_FILES.records));
  return Object.fromEntries(
    rows.map((record) => [record.key, withoutTiming({ score: record.score, state: record.state })]),
  );
}

const taskOrder = (dir: string) => readJsonl<RunRecord>(join(dir, RUN_FILES.records)).rows.map((record) => record.key);

describe("third-party MCP servers from npm", () => {
  it("the oracle scores 100% with isolated servers, in any task order, and the fixtures stay as they were", async () => {
    const before = folderDigest(FIXTURE);
    const warnings: string[] = [];
    const first = await runBench({
      request: request({ shuffle: 1 }),
      resultsRoot: root,
      onWarning: (line) => warnings.push(line),
    });
    const second = await runBench({ request: request({ shuffle: 2 }), resultsRoot: root });

    for (const run of [first, second]) {
      expect(run.failures).toEqual([]);
      expect(run.summary.rows.map((row) => [row.config, row.n, row.taskSuccess.value])).toEqual([
        ["onsetlab-plus", 11, 1],
        ["native", 11, 1],
      ]);
    }
    // another order, the same score for every task
    expect(taskOrder(second.dir)).not.toEqual(taskOrder(first.dir));
    expect(scoresOf(second.dir)).toEqual(scoresOf(first.dir));

    const manifest = JSON.parse(readFileSync(join(first.dir, RUN_FILES.run), "utf8")) as RunManifest;
    expect(manifest.resets).toEqual({ filesystem: "fixture", memory: "fixture" });
    expect(manifest.request).toMatchObject({ registries: [REGISTRY], shuffle: 1 });
    expect(warnings).toEqual([]);
    // a task after one that used a server ran on a fresh copy, and its record says so
    const records = readJsonl<RunRecord>(join(first.dir, RUN_FILES.records)).rows;
    expect(records.some((record) => record.session.resets?.filesystem === "fixture")).toBe(true);
    // the tool-call checks ran against the real servers: a write item's check read the file back
    const written = records.find((record) => record.itemId === "byo-fs-003" && record.config === "native")!;
    expect(written.state).toMatchObject([{ pass: true }]);
    expect(folderDigest(FIXTURE)).toEqual(before);
  });

  it("with reset: none the servers share their data across tasks, the run warns, and the order decides", async () => {
    // the filesystem server over one folder of its own, never reset
    const shared = join(root, "shared");
    cpSync(join(FIXTURE, "files"), shared, { recursive: true });
    const registry = join(root, "none.json");
    const entry = JSON.parse(readFileSync(REGISTRY, "utf8")).servers[0];
    writeFileSync(
      registry,
      JSON.stringify({
        servers: [{ ...entry, args: [entry.args[0], shared], cwd: REPO_ROOT, reset: "none", fixture_dir: undefined }],
      }),
    );
    // the item that overwrites notes/todo.md, and the one that reads it
    const run = (shuffle: number) => {
      const warnings: string[] = [];
      rmSync(shared, { recursive: true, force: true });
      cpSync(join(FIXTURE, "files"), shared, { recursive: true });
      return runBench({
        request: request({
          configs: ["native"],
          dataset: [join(root, "pair.jsonl")],
          registries: [registry],
          shuffle,
        }),
        resultsRoot: root,
        onWarning: (line) => warnings.push(line),
      }).then((outcome) => ({ outcome, warnings }));
    };
    const items = readFileSync(DATASET, "utf8")
      .split("\n")
      .filter((line) => line.includes('"byo-fs-001"') || line.includes('"byo-fs-006"'));
    writeFileSync(join(root, "pair.jsonl"), `${items.join("\n")}\n`);
    writeFileSync(join(root, "pair.suite.yaml"), "servers: [filesystem]\nclock: none\n");

    const outcomes = [];
    for (const shuffle of [1, 2, 3, 4]) outcomes.push(await run(shuffle));
    expect(outcomes[0]!.warnings).toEqual([
      "server filesystem never reset (reset: none): results may depend on the order of the tasks",
    ]);
    const manifest = JSON.parse(readFileSync(join(outcomes[0]!.outcome.dir, RUN_FILES.run), "utf8")) as RunManifest;
    expect(manifest.resets).toEqual({ filesystem: "none" });
    // the read passes when it runs first, and fails after the overwrite
    const readPassed = outcomes.map(({ outcome }) => {
      const records = readJsonl<RunRecord>(join(outcome.dir, RUN_FILES.records)).rows;
      const read = records.find((record) => record.itemId === "byo-fs-001")!;
      return { readFirst: records[0] === read, passed: read.score.taskSuccess };
    });
    expect(new Set(readPassed.map((run) => run.readFirst))).toEqual(new Set([true, false]));
    for (const run of readPassed) expect(run.passed).toBe(run.readFirst);
  });
});
