import { describe, expect, it } from "vitest";
import { expandMatrix, parseShard, selectShard } from "./matrix.ts";

describe("run matrix", () => {
  const input = { models: ["m1", "m2"], configs: ["c1", "c2"], itemIds: ["i1", "i2", "i3"], repeats: 2 };

  it("expands models × repeats × items × configurations, model-major, with unique keys", () => {
    const tasks = expandMatrix(input);
    expect(tasks).toHaveLength(2 * 2 * 3 * 2);
    expect(new Set(tasks.map((task) => task.key)).size).toBe(tasks.length);
    expect(tasks.slice(0, 3).map((task) => task.key)).toEqual(["m1|c1|i1|0", "m1|c2|i1|0", "m1|c1|i2|0"]);
    expect(tasks[12]?.key).toBe("m2|c1|i1|0");
  });

  it("deals whole items round-robin to shards that together cover the run exactly once", () => {
    const tasks = expandMatrix(input);
    const shards = [1, 2].map((index) => selectShard(tasks, { index, count: 2 }, input.itemIds));
    expect(new Set(shards[0]!.map((task) => task.itemId))).toEqual(new Set(["i1", "i3"]));
    expect(new Set(shards[1]!.map((task) => task.itemId))).toEqual(new Set(["i2"]));
    expect([...shards[0]!, ...shards[1]!].map((task) => task.key).sort()).toEqual(tasks.map((task) => task.key).sort());
  });

  it.each(["0/2", "3/2", "1/0", "a/b", "1-2"])("rejects --shard %s naming the flag", (text) => {
    expect(() => parseShard(text)).toThrow(/--shard must be i\/n/);
  });
});
