/**
 * Fault injection over stdio: `bench --faults` reaches the server processes (and run.json records it), the
 * retries show in the records, MOCK_MCP_FAULTS reaches a stdio server by itself (the registry passes it), and a
 * server that gives no answer in time is restarted.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RunManifest } from "../../src/bench/run/run-file-types.ts";
import { RUN_FILES, readJson } from "../../src/bench/run/store.ts";
import { ClientPool } from "../../src/mcp/pool.ts";
import { loadRegistry } from "../../src/mcp/registry.ts";
import { FAULTS_ENV } from "../../src/tool-protocol/faults.ts";
import { runCli, strictRecordLines } from "../support/bench-run.ts";

const root = mkdtempSync(join(tmpdir(), "onsetlab-faults-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const FAULTS = { transientRate: 0.3, seed: 1 };

describe("fault injection over stdio", () => {
  it("bench --faults at rate 0.3: the records show the retries, and the run still answers", async () => {
    const results = join(root, "bench");
    const outcome = await runCli(
      ["bench", "--model", "sim:oracle", "--config", "onsetlab", "--filter", "category=single", "--limit", "12"].concat(
        ["--transport", "stdio", "--faults", JSON.stringify(FAULTS), "--json"],
      ),
      { ONSETLAB_RESULTS_DIR: results },
    );
    expect(outcome.code, outcome.stderr).toBe(0);
    const dir = join(results, readdirSync(results)[0]!);
    expect(readJson<RunManifest>(join(dir, RUN_FILES.run), "run.json").request.faults).toEqual(FAULTS);

    const calls = strictRecordLines(dir).flatMap((record) => record.result.toolCalls);
    const retried = calls.filter((call) => call.attempts.length > 1);
    process.stderr.write(`faults 0.3 over stdio: ${calls.length} calls, ${retried.length} retried\n`);
    expect(retried.length).toBeGreaterThan(0);
    for (const call of retried) {
      const outcomes = call.attempts.map((attempt) => attempt.outcome);
      expect(outcomes.slice(0, -1).every((kind) => kind === "transient")).toBe(true);
      expect(call.attempts[0]?.code).toBe(-32603);
    }
    // at 0.3, four attempts in a row rarely all fail: most retried calls end well
    expect(retried.filter((call) => call.ok).length).toBeGreaterThan(0);
  }, 120_000);

  it("refuses a bad --faults value with exit 2 and one line naming the flag", async () => {
    const outcome = await runCli(["bench", "--model", "sim:oracle", "--faults", '{"transientRate":3}']);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain("--faults: transientRate must be a number from 0 to 1");
  });

  it(`${FAULTS_ENV} reaches a stdio server through the registry's env`, async () => {
    const before = process.env[FAULTS_ENV];
    process.env[FAULTS_ENV] = JSON.stringify({ transientRate: 1 });
    const pool = await ClientPool.open(loadRegistry(), {
      transport: "stdio",
      servers: ["builtin"],
      retryDelaysMs: [0, 0, 0],
    }).finally(() => {
      if (before === undefined) delete process.env[FAULTS_ENV];
      else process.env[FAULTS_ENV] = before;
    });
    try {
      const result = await pool.callTool("calculator", { expression: "1 + 1" });
      expect(result.attempts.map((attempt) => attempt.outcome)).toEqual([
        "transient",
        "transient",
        "transient",
        "transient",
      ]);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it("restarts a stdio server that gave no answer in time, so the calls after it are answered", async () => {
    const pool = await ClientPool.open(loadRegistry(), {
      transport: "stdio",
      servers: ["builtin"],
      callTimeoutMs: 500,
    });
    try {
      const pid = pool.childPids()[0];
      await pool.control.setFaults("builtin", { latencyMs: 60_000 });
      const stuck = await pool.callTool("calculator", { expression: "1 + 1" });
      expect(stuck).toMatchObject({ ok: false, error: { kind: "timeout", code: -32001 } });
      expect(stuck.attempts).toEqual([expect.objectContaining({ outcome: "timeout", restartedAfter: true })]);
      expect(pool.restartCount("builtin")).toBe(1);
      expect(pool.childPids()[0]).not.toBe(pid);
      expect(await pool.callTool("calculator", { expression: "1 + 1" })).toMatchObject({
        ok: true,
        data: { result: 2 },
      });
    } finally {
      await pool.close();
    }
  }, 60_000);
});
