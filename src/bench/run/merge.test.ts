import { describe, expect, it } from "vitest";
import { checkSameMatrix, MergeError, mergeRuns, type SourceRun, unsharded } from "./merge.ts";
import type { BenchRequest, RunManifest } from "./run-file-types.ts";

const request: BenchRequest = {
  models: ["sim:slm-3b"],
  configs: [],
  matrix: "default",
  dataset: [],
  filter: {},
  limit: 10,
  seed: 1,
  repeats: 1,
  transport: "memory",
};

function shard(
  id: string,
  changes: { request?: Partial<BenchRequest>; hash?: string; filter?: number } = {},
): SourceRun {
  const manifest = {
    runId: id,
    request: { ...request, shard: { index: 1, count: 2 }, ...changes.request },
    resolved: { "sim:slm-3b": { onsetlab: { strategy: "auto", filter: changes.filter ?? 8 } } },
    dataset: { files: [], hash: changes.hash ?? "aaaa", items: 10, itemIds: [] },
  } as unknown as RunManifest;
  return { id, dir: `/nowhere/${id}`, manifest };
}

describe("checkSameMatrix", () => {
  it("accepts shards that differ only in their shard", () => {
    expect(() => checkSameMatrix(shard("a"), shard("b", { request: { shard: { index: 2, count: 2 } } }))).not.toThrow();
  });

  it("names what differs between runs of different matrices", () => {
    const call = () => checkSameMatrix(shard("a"), shard("b", { request: { seed: 2, limit: 20 } }));
    expect(call).toThrow(MergeError);
    expect(call).toThrow("runs a and b are not shards of one matrix: limit 10 vs 20; seed 1 vs 2");
  });

  it("refuses runs whose resolved configurations differ (e.g. --filter-n on one shard)", () => {
    expect(() => checkSameMatrix(shard("a"), shard("b", { filter: 3 }))).toThrow(/resolved configurations/);
  });

  it("refuses runs of the same request made on different datasets", () => {
    expect(() => checkSameMatrix(shard("a"), shard("b", { hash: "bbbb" }))).toThrow(
      "runs a and b were made on different datasets (hash aaaa vs bbbb)",
    );
  });
});

describe("mergeRuns", () => {
  it("needs two different runs", () => {
    expect(() => mergeRuns({ runIds: ["a", "a"], root: "/nowhere" })).toThrow(/at least two different runs/);
  });
});

describe("unsharded", () => {
  it("removes the shard and nothing else", () => {
    expect(unsharded({ ...request, shard: { index: 2, count: 3 } })).toEqual(request);
  });
});
