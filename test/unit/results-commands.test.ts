/**
 * `results show`, `results rm` and `results prune` in process through the CLI program, on runs made in a
 * results folder of the test's own.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBench } from "../../src/bench/run/bench.ts";
import { shownPath } from "../../src/report/paths.ts";
import { benchRequest, REPO_ROOT, strictRecordLines } from "../support/bench-run.ts";
import { runInProcess } from "../support/cli-in-process.ts";
import { useTempResults } from "../support/temp-results.ts";

// the results folder of this test (read when a run is written, not at import)
const { root, results } = useTempResults("onsetlab-results-cmd-");
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function makeRun(configs: string[], first: number): Promise<string> {
  const { runId } = await runBench({ request: benchRequest({ configs, first }), resultsRoot: results });
  return runId;
}

describe("where a run went", () => {
  it("bench names the run's folder as it is, under ONSETLAB_RESULTS_DIR too (not results/ of the checkout)", async () => {
    const bench = await runInProcess(["bench", "--model", "sim:oracle", "--config", "onsetlab", "--first", "1"]);
    expect(bench.code, bench.stderr).toBe(0);
    const runId = readdirSync(results).find((name) => bench.stderr.includes(`run ${name}:`))!;
    expect(bench.stderr).toContain(`run ${runId}: 1 records → ${join(results, runId)}/\n`);
  });

  it("shownPath from the working folder: relative inside it, absolute outside it", () => {
    expect(shownPath("/work/repo/results/r1", "/work/repo")).toBe("results/r1");
    expect(shownPath("/tmp/elsewhere/r1", "/work/repo")).toBe("/tmp/elsewhere/r1");
    expect(shownPath("/work/repo", "/work/repo")).toBe("/work/repo");
  });
});

describe("results show", () => {
  let runId = "";
  beforeAll(async () => {
    runId = await makeRun(["onsetlab", "jsonl"], 3);
  });

  it("prints the run's header: label, models, configurations, items, records, invalid counts", async () => {
    const { code, stdout } = await runInProcess(["results", "show", runId]);
    expect(code).toBe(0);
    expect(stdout).toContain(`${runId} (SIMULATED)`);
    expect(stdout).toMatch(/models\s+sim:slm-3b/);
    expect(stdout).toMatch(/configs\s+onsetlab, jsonl/);
    expect(stdout).toMatch(/records\s+6 of 6\n/);
    expect(stdout).toMatch(/invalid\s+none/);
  });

  it("prints one record with every model call's full prompt, its output and the score", async () => {
    const record = strictRecordLines(join(results, runId)).find(
      (entry) => entry.config === "jsonl" && entry.result.modelCalls.length > 1,
    )!;
    const { code, stdout } = await runInProcess(["results", "show", runId, "--item", record.key]);
    expect(code).toBe(0);
    expect(stdout).toContain(record.result.query);
    // the last turn's conversation, the first turn's system message included
    for (const message of record.result.modelCalls.at(-1)!.messages ?? []) {
      for (const line of message.content.split("\n").filter((text) => text.trim() !== "")) {
        expect(stdout).toContain(line);
      }
    }
    expect(stdout).toMatch(/score\s+(✓|✗|!)/);
  });

  it("records are self-contained as zcat reads them, and --json prints the record as stored", async () => {
    const records = strictRecordLines(join(results, runId));
    const record = records.find((entry) => entry.config === "jsonl" && entry.result.modelCalls.length > 1)!;
    const [first, ...later] = record.result.modelCalls;
    // every turn carries the whole conversation: the system prompt and the query again
    for (const call of later) expect(call.messages?.slice(0, 2)).toEqual(first!.messages?.slice(0, 2));
    const completed = records.find((entry) => entry.result.modelCalls.some((call) => call.kind === "complete"))!;
    const prompt = completed.result.modelCalls.find((call) => call.kind === "complete")!.prompt;
    expect(prompt).toContain(completed.result.query);
    for (const call of record.result.toolCalls) expect(typeof call.text).toBe("string");
    const { code, stdout } = await runInProcess(["results", "show", runId, "--item", record.key, "--json"]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(record);
  });

  it("an unknown run or key: exit 2 with one line", async () => {
    const run = await runInProcess(["results", "show", "no-such-run"]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("no-such-run");
    const item = await runInProcess(["results", "show", runId, "--item", "nope"]);
    expect(item.code).toBe(2);
    expect(item.stderr.trim().split("\n")).toHaveLength(1);
    expect(item.stderr).toMatch(/--item nope: no record with this key.*keys look like/);
  });
});

describe("results rm and prune", () => {
  it("rm deletes the named runs, refuses a calibration run and an unknown one (deleting nothing)", async () => {
    const a = await makeRun(["native"], 1);
    const b = await makeRun(["native"], 1);
    const calibrationId = readdirSync(join(REPO_ROOT, "results/calibration"))[0]!;
    mkdirSync(join(results, "calibration"), { recursive: true });
    cpSync(join(REPO_ROOT, "results/calibration", calibrationId), join(results, "calibration", calibrationId), {
      recursive: true,
    });
    const refused = await runInProcess(["results", "rm", a, `calibration/${calibrationId}`]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("calibration run");
    expect(existsSync(join(results, a))).toBe(true);
    const unknown = await runInProcess(["results", "rm", a, "no-such-run"]);
    expect(unknown.code).toBe(2);
    expect(existsSync(join(results, a))).toBe(true);
    const removed = await runInProcess(["results", "rm", a, b]);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain(a);
    expect(existsSync(join(results, a)) || existsSync(join(results, b))).toBe(false);
    expect(existsSync(join(results, "calibration", calibrationId, "run.json"))).toBe(true);
  });

  it("prune --keep N keeps the newest N runs, leaves calibration alone; --dry-run removes nothing", async () => {
    for (let made = 0; made < 2; made += 1) await makeRun(["native"], 1);
    const before = (await runInProcess(["results", "list", "--json"])).stdout;
    const runs = (JSON.parse(before) as { id: string }[]).map((run) => run.id);
    expect(runs.length).toBeGreaterThanOrEqual(3);
    const dry = await runInProcess(["results", "prune", "--keep", "1", "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout.trim().split("\n")).toEqual(runs.slice(1).map((id) => `would remove ${id}`));
    expect(runs.every((id) => existsSync(join(results, id)))).toBe(true);
    const pruned = await runInProcess(["results", "prune", "--keep", "1"]);
    expect(pruned.stdout.trim().split("\n")).toEqual(runs.slice(1).map((id) => `removed ${id}`));
    expect(readdirSync(results).sort()).toEqual([runs[0], "calibration"].sort());
    const bad = await runInProcess(["results", "prune", "--keep", "-1"]);
    expect(bad.code).toBe(2);
  });
});
