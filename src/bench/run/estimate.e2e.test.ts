import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { benchRequest, strictRecordLines } from "../../../test/support/bench-run.ts";
import { runBench } from "./bench.ts";
import { estimateRun, type RequestCacheView } from "./estimate.ts";

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const request = benchRequest({ configs: ["onsetlab", "no-rescue", "react", "native", "jsonl"], first: 5, repeats: 2 });

describe("bench --estimate", () => {
  it("counts exactly the model calls and tokens a simulator run of the same matrix records", async () => {
    const estimate = await estimateRun({ request });
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

  it("leaves out what the request cache holds, sends a repeated request once, and times the rest", async () => {
    const keyOf: RequestCacheView["keyOf"] = (model, input, dry) => JSON.stringify([model, input, dry.options]);
    const plain = await estimateRun({ request }, { measure: async () => speed });
    const heldKeys = new Set<string>();
    const cache: RequestCacheView = {
      keyOf,
      holds: (key) => {
        // the first half of the distinct requests are held
        if (heldKeys.size < 20) heldKeys.add(key);
        return heldKeys.has(key);
      },
    };
    const cached = await estimateRun({ request }, { cache, measure: async () => speed });
    const [before] = plain.models;
    const [after] = cached.models;
    expect(before?.toSend).toBe(before?.modelCalls);
    expect(after?.cached).toBeGreaterThan(0);
    // no-rescue repeats onsetlab's planner calls, and the second repeat the first one's deterministic calls
    expect(after?.repeated).toBeGreaterThan(0);
    expect((after?.toSend ?? 0) + (after?.cached ?? 0) + (after?.repeated ?? 0)).toBe(after?.modelCalls);
    expect(after?.sentPromptTokens).toBeLessThan(before?.sentPromptTokens ?? 0);
    // the ETA is the model time at the measured speed plus the harness's work, and its per-task shares add up
    expect(plain.etaMs).toBeCloseTo((before?.modelMs ?? 0) + plain.harnessMs, 3);
    const perTask = Object.values(plain.taskMs).reduce((total, ms) => total + ms, 0);
    expect(perTask).toBeCloseTo((plain.etaMs ?? 0) - (before?.speed?.loadMs ?? 0), 3);
    expect(cached.etaMs).toBeLessThan(plain.etaMs ?? 0);
  }, 60_000);
});

const speed = { promptTokensPerSec: 400, genTokensPerSec: 40, overheadMs: 5, loadMs: 1000, from: "reported" as const };
