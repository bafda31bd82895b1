/**
 * `pnpm bench --model qwen2.5:3b --matrix default --limit 60` against the stand-in in real mode (a stock
 * Ollama: front truncation at num_ctx, output cut at num_predict, known models only), through the real
 * CLI. With `num_ctx: auto` no item is invalid and every call's window is in the records; with a
 * `--num-ctx` smaller than some configurations' prompts, exactly those configurations report
 * context_overflow items as invalid (never as wrong answers) and the run exits 1 saying why.
 *
 * The window of the second run is chosen from the prompt sizes the first run measured, so the test
 * holds when prompts change size (e.g. fewer tools exposed per item).
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Standin, startStandin } from "../../mock-servers/ollama/server.ts";
import { loadDataset } from "../../src/bench/dataset/load.ts";
import type { RunManifest } from "../../src/bench/run/run-files.ts";
import { RUN_FILES, readJson } from "../../src/bench/run/store.ts";
import { loadModelsConfig, matrixConfigs } from "../../src/config/models-yaml.ts";
import { createSimProvider } from "../../src/models/sim/index.ts";
import type { InvalidReason } from "../../src/models/types.ts";
import { runCli, strictRecordLines } from "../support/bench-run.ts";

const root = mkdtempSync(join(tmpdir(), "onsetlab-real-server-"));
let standin: Standin;

beforeAll(async () => {
  const gold = loadDataset([]).map((loaded) => loaded.item);
  standin = await startStandin({ provider: createSimProvider({ profile: "slm-3b", gold }), port: 0, real: true });
});

afterAll(async () => {
  await standin.close();
  rmSync(root, { recursive: true, force: true });
});

interface JsonRow {
  config: string;
  n: number;
  invalid: Record<InvalidReason, number>;
}

const bench = (args: string[], results: string) =>
  runCli(["bench", "--model", "qwen2.5:3b", "--matrix", "default", "--limit", "60", "--json", ...args], {
    OLLAMA_HOST: standin.url,
    ONSETLAB_RESULTS_DIR: results,
  });

/** The run folder a bench run printed on stderr. */
function runDirOf(stderr: string, results: string): string {
  const id = /run (\S+): \d+ records/.exec(stderr)?.[1];
  if (!id) throw new Error(`no run id in: ${stderr}`);
  return join(results, id);
}

describe("a real-mode server, the default matrix, 60 items", () => {
  // per configuration: the largest prompt a call of it sent, and the output cap of that call
  const largest = new Map<string, number>();

  it("num_ctx auto: no invalid item, and every call's window is in the records and run.json", async () => {
    const results = join(root, "auto");
    const outcome = await bench([], results);
    expect(outcome.stderr).not.toMatch(/error:/);
    expect(outcome.code).toBe(0);
    const rows = (JSON.parse(outcome.stdout) as { standin?: boolean; rows: JsonRow[] }).rows;
    expect(rows).toHaveLength(matrixConfigs(loadModelsConfig(), "default").length);
    for (const row of rows) {
      expect(row.invalid, row.config).toEqual({ context_overflow: 0, output_truncated: 0, server_error: 0 });
      expect(row.n).toBe(60);
    }
    const dir = runDirOf(outcome.stderr, results);
    const windows = new Set<number>();
    for (const record of strictRecordLines(dir)) {
      for (const call of record.result.modelCalls) {
        const window = call.context?.window;
        expect(window, `${record.key} call ${call.seq}`).toEqual(expect.any(Number));
        windows.add(window!);
        expect(call.usage!.promptTokens).toBeLessThan(window!);
        const need = call.usage!.promptTokens + (call.options?.maxTokens ?? 0);
        largest.set(record.config, Math.max(largest.get(record.config) ?? 0, need));
      }
    }
    const manifest = readJson<RunManifest>(join(dir, RUN_FILES.run), "run.json");
    expect(manifest.models[0]).toMatchObject({
      provenance: { kind: "stand-in", profile: "sim:slm-3b" },
      facts: { contextLength: 32768, numCtx: "auto", capabilities: ["completion", "tools"] },
      warmUp: { totalMs: expect.any(Number) },
      windowsUsed: [...windows].sort((a, b) => a - b),
    });
  });

  it("--num-ctx below some configurations' prompts: those report context_overflow as invalid, and exit 1", async () => {
    // the smallest step of 512 that fits every call of the planner/ReAct configurations with room to spare
    const everyTool = ["native", "native-recover", "jsonl", "jsonl-constrained", "filter-all"];
    const small = [...largest.keys()].filter((config) => !everyTool.includes(config));
    const numCtx = Math.ceil(Math.max(...small.map((config) => largest.get(config)!)) / 512) * 512;
    const overflowing = [...largest].filter(([, need]) => need > numCtx).map(([config]) => config);
    // the configurations that send every tool: today's prompt sizes put them over the window
    expect(overflowing).toEqual(expect.arrayContaining(everyTool));

    const results = join(root, "small");
    const outcome = await bench(["--num-ctx", String(numCtx)], results);
    expect(outcome.code).toBe(1);
    const lines = outcome.stderr.trim().split("\n");
    expect(lines.at(-1)).toMatch(
      /^error: more than 5% of the items are invalid in .*qwen2\.5:3b × jsonl: \d+ of 60 \(context_overflow/,
    );
    expect(lines.at(-1)).toContain("--allow-invalid");
    const rows = (JSON.parse(outcome.stdout) as { rows: JsonRow[] }).rows;
    for (const row of rows) {
      const expected = overflowing.includes(row.config);
      expect(row.invalid.context_overflow > 0, `${row.config}: ${JSON.stringify(row.invalid)}`).toBe(expected);
      expect(row.n + row.invalid.context_overflow + row.invalid.output_truncated + row.invalid.server_error).toBe(60);
    }
    // an overflowing item is invalid, never scored as a wrong answer: its call says so, its score has the reason
    const dir = runDirOf(outcome.stderr, results);
    for (const record of strictRecordLines(dir)) {
      const overflowed = record.result.modelCalls.some((call) => call.invalid === "context_overflow");
      expect(record.score.invalid === "context_overflow", record.key).toBe(overflowed);
      for (const call of record.result.modelCalls) expect(call.context?.window).toBe(numCtx);
    }
    // the same run with --allow-invalid is accepted
    const allowed = await bench(["--num-ctx", String(numCtx), "--allow-invalid"], join(root, "allowed"));
    expect(allowed.code).toBe(0);
  });
});
