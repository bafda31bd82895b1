/**
 * Kill -9 and resume: the real `bench` CLI in a child process is killed with SIGKILL once it has
 * written some records; `bench --resume <id>` then finishes the run. The finished run has exactly one
 * record per key, records.jsonl.gz and traces.jsonl.gz are whole gzip files (a torn member cut off), and
 * the records are the same (timing aside) as a run that was never killed.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { appendFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { runBench } from "../../src/bench/run/bench.ts";
import type { RunManifest } from "../../src/bench/run/run-file-types.ts";
import { countRows, RUN_FILES, readJson } from "../../src/bench/run/store.ts";
import { readRunLines } from "../../src/bench/run/testing/run-lines.ts";
import { benchRequest, CLI, REPO_ROOT, recordContents, runCli, strictRecordLines } from "../support/bench-run.ts";

const root = mkdtempSync(join(tmpdir(), "onsetlab-resume-"));
const killedRoot = join(root, "killed");
afterAll(() => rmSync(root, { recursive: true, force: true }));

// 20 items × the default matrix's 9 configurations = 180 tasks: a few seconds on the simulator
const flags = ["--model", "sim:slm-3b", "--matrix", "default", "--limit", "20", "--seed", "3"];
const KILL_AFTER = 10;

/** Polls the results folder until the run has `records` records on disk; undefined if the child ended first. */
async function waitForRecords(child: ReturnType<typeof spawn>, records: number): Promise<string | undefined> {
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });
  while (!exited) {
    const runId = existsSync(killedRoot) ? readdirSync(killedRoot)[0] : undefined;
    if (runId && countRows(join(killedRoot, runId, RUN_FILES.records)) >= records) return runId;
    await sleep(20);
  }
  return undefined;
}

describe("bench kill -9 and --resume", () => {
  it("finishes a killed run with one record per key, equal to an uninterrupted run", async () => {
    // killed while two threads run tasks; resumed on one
    const child = spawn(process.execPath, [...CLI, "bench", ...flags, "--threads", "2"], {
      cwd: REPO_ROOT,
      env: { ...process.env, CI: "true", ONSETLAB_RESULTS_DIR: killedRoot },
      stdio: "ignore",
    });
    const runId = await waitForRecords(child, KILL_AFTER);
    if (!runId) throw new Error(`the run ended before it had ${KILL_AFTER} records: nothing was killed`);
    child.kill("SIGKILL");
    const [, signal] = await once(child, "exit");
    expect(signal).toBe("SIGKILL");

    const dir = join(killedRoot, runId);
    const planned = readJson<RunManifest>(join(dir, RUN_FILES.run), "run.json").tasks;
    const before = countRows(join(dir, RUN_FILES.records));
    expect(before).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(before).toBeLessThan(planned);
    // what a kill in the middle of an append leaves: the first part of a gzip member
    const halfMember = (line: string) => gzipSync(`${line}\n`.repeat(50)).subarray(0, 40);
    appendFileSync(join(dir, RUN_FILES.records), halfMember('{"key":"sim:slm-3b|onsetlab|gh-000|0"}'));
    appendFileSync(join(dir, RUN_FILES.traces), halfMember('{"traceId":"0af7651916cd43dd8448eb211c80319c"}'));
    expect(countRows(join(dir, RUN_FILES.records))).toBe(before);

    const resumed = await runCli(["bench", "--resume", runId, "--json"], { ONSETLAB_RESULTS_DIR: killedRoot });
    expect(resumed.stderr).toContain(`(${before} from before the resume)`);
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ runId, records: planned });

    // the torn members were cut before the resume appended: zlib's gunzip reads both files whole
    for (const line of readRunLines(dir, "traces")) expect(() => JSON.parse(line), line.slice(0, 80)).not.toThrow();

    const lines = strictRecordLines(dir);
    expect(lines).toHaveLength(planned);
    expect(new Set(lines.map((record) => record.key)).size).toBe(planned);
    const manifest = readJson<RunManifest>(join(dir, RUN_FILES.run), "run.json");
    expect(manifest.sessions).toHaveLength(2);
    expect(manifest.sessions[1]?.tasksRun).toBe(planned - before);
    expect(manifest.sessions.map((session) => session.threads)).toEqual([2, 1]);
    expect(manifest.finishedAt).toBeDefined();

    const uninterrupted = await runBench({
      request: benchRequest({ models: ["sim:slm-3b"], matrix: "default", limit: 20, seed: 3 }),
      resultsRoot: join(root, "uninterrupted"),
    });
    expect(recordContents(dir)).toEqual(recordContents(uninterrupted.dir));
  }, 180_000);
});
