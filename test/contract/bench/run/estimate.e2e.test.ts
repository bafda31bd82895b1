import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startStandin } from "../../../../mock-servers/ollama/server.ts";
import { loadDataset } from "../../../../src/bench/dataset/load.ts";
import { runBench } from "../../../../src/bench/run/bench.ts";
import { estimateRun } from "../../../../src/bench/run/estimate.ts";
import { createSimProvider } from "../../../../src/models/sim/index.ts";
import { benchRequest, strictRecordLines } from "../../../support/bench-run.ts";

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const request = benchRequest({ configs: ["onsetlab", "no-rescue", "react", "native", "jsonl"], first: 4, repeats: 2 });

describe("bench --estimate", () => {
  it("counts exactly the model calls and tokens a simulator run of the same matrix records", async () => {
    const estimate = await estimateRun({ request, resultsRoot: tmpdir() });
    const root = mkdtempSync(join(tmpdir(), "onsetlab-estimate-"));
    roots.push(root);
    const { dir } = await runBench({ request, resultsRoot: root, threads: 1 });
    const records = strictRecordLines(dir);
    const sum = (pick: (cost: { modelCalls: number; promptTokens: number; completionTokens: number }) => number) =>
      records.reduce((total, record) => total + pick(record.score.cost), 0);
    const [model] = estimate.models;
    expect(estimate.tasks).toBe(records.length);
    expect(model?.modelCalls).toBe(sum((cost) => cost.modelCalls));
    expect(model?.promptTokens).toBe(sum((cost) => cost.promptTokens));
    expect(model?.completionTokens).toBe(sum((cost) => cost.completionTokens));
    // the simulator has no server: nothing to time
    expect(estimate.etaMs).toBeUndefined();
  }, 60_000);

  it("counts what the request cache holds and what the run repeats, and times what goes to the server", async () => {
    const gold = loadDataset().map((loaded) => loaded.item);
    const standin = await startStandin({
      provider: createSimProvider({ profile: "slm-3b", gold, seed: 1 }),
      port: 0,
      real: true,
    });
    const saved = process.env.OLLAMA_HOST;
    process.env.OLLAMA_HOST = standin.url;
    try {
      const root = mkdtempSync(join(tmpdir(), "onsetlab-estimate-"));
      roots.push(root);
      const bench = {
        request: benchRequest({ models: ["qwen2.5:3b"], configs: ["onsetlab", "no-rescue", "native"], first: 3 }),
        resultsRoot: root,
        cacheDir: join(root, "cache"),
      };
      // timed for real: the stand-in answers at once, and reports the model's digest the cache keys by
      const cold = await estimateRun(bench);
      const [before] = cold.models;
      expect(before?.cached).toBe(0);
      // no-rescue repeats onsetlab's planner calls: sent once
      expect(before?.repeated).toBeGreaterThan(0);
      expect((before?.toSend ?? 0) + (before?.repeated ?? 0)).toBe(before?.modelCalls);
      // the ETA is the model time at the measured speed plus the harness's work; per task it adds up
      expect(cold.etaMs).toBeCloseTo((before?.modelMs ?? 0) + cold.harnessMs, 3);
      const perTask = Object.values(cold.taskMs).reduce((total, ms) => total + ms, 0);
      expect(perTask).toBeCloseTo((cold.etaMs ?? 0) - (before?.speed?.loadMs ?? Number.NaN), 3);

      standin.resetStats();
      await runBench(bench);
      // the stand-in answers as the dry pass's simulator did: the run sent what the estimate said (the
      // warm-up is a load request, no generation)
      expect(standin.stats().requests).toBe(before?.toSend);
      const warm = await estimateRun(bench);
      const [after] = warm.models;
      expect(after?.cached).toBe(after?.modelCalls);
      expect(after?.toSend).toBe(0);
      expect(warm.etaMs).toBeCloseTo(warm.harnessMs + (after?.speed?.loadMs ?? Number.NaN), 3);
    } finally {
      process.env.OLLAMA_HOST = saved;
      if (saved === undefined) delete process.env.OLLAMA_HOST;
      await standin.close();
    }
  }, 120_000);
});
