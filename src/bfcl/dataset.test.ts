import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDataset } from "../bench/dataset/load.ts";
import { loadBfclDataset, questionOfItem } from "./dataset.ts";
import { BfclInputError } from "./errors.ts";
import { DEFAULT_BFCL_DATA_DIR } from "./paths.ts";
import { type SampleDirs, writeSample } from "./testing/sample.ts";
import { sharedBfclPresent } from "./testing/shared.ts";
import { writeBfclDataset } from "./write-dataset.ts";

const sharedPresent = sharedBfclPresent("BFCL dataset test of the whole shared sample");

let sample: SampleDirs;
beforeAll(() => {
  sample = writeSample();
});
afterAll(() => rmSync(sample.root, { recursive: true, force: true }));

describe("BFCL categories as bench datasets", () => {
  it("bfcl:<categories> → dataset items in file order, category by category", () => {
    const { items } = loadBfclDataset("bfcl:parallel,simple", { dataDir: sample.dataDir });
    expect(items.map((item) => item.id)).toEqual([
      "parallel_0",
      "simple_0",
      "simple_1",
      "simple_2",
      "simple_3",
      "simple_4",
      "simple_5",
    ]);
    expect(items[0]).toMatchObject({
      category: "parallel",
      order: "any",
      difficulty: "medium",
      tools: ["get_weather"],
    });
  });

  it("an unknown category is an InputError naming it and what is available", () => {
    const load = () => loadBfclDataset("bfcl:simple,live_simple", { dataDir: sample.dataDir });
    expect(load).toThrow(BfclInputError);
    expect(load).toThrow(
      /unknown BFCL category "live_simple" in "bfcl:simple,live_simple".*irrelevance, parallel, simple/,
    );
    expect(() => loadBfclDataset("simple", { dataDir: sample.dataDir })).toThrow(/"bfcl:<category>/);
    expect(() => loadBfclDataset("bfcl:", { dataDir: sample.dataDir })).toThrow(/name at least one category/);
  });

  it("an item leads back to its question's function docs", () => {
    const { items } = loadBfclDataset("bfcl:simple", { dataDir: sample.dataDir });
    expect(questionOfItem(items[1]!, { dataDir: sample.dataDir }).function.map((f) => f.name)).toEqual([
      "math.factorial",
    ]);
    expect(() => questionOfItem({ ...items[1]!, tags: [] }, { dataDir: sample.dataDir })).toThrow(
      /no "bfcl:<category>" tag/,
    );
  });

  it("bfcl import writes items the project's dataset loader accepts, and the tools per item", () => {
    const outDir = join(sample.root, "out");
    const written = writeBfclDataset({ dataDir: sample.dataDir, categories: ["simple", "irrelevance"], outDir });
    expect(written.map((w) => [w.category, w.items])).toEqual([
      ["simple", 6],
      ["irrelevance", 1],
    ]);
    const { items, problems } = readDataset(written.map((w) => w.itemsFile));
    expect(problems).toEqual([]);
    expect(items.map((loaded) => loaded.item.category)).toEqual([
      "single",
      "single",
      "single",
      "single",
      "single",
      "single",
      "irrelevant",
    ]);
    const tools = JSON.parse(readFileSync(written[0]!.toolsFile, "utf8"));
    expect(Object.keys(tools)).toEqual(["simple_0", "simple_1", "simple_2", "simple_3", "simple_4", "simple_5"]);
    expect(tools.simple_4[0]).toMatchObject({
      name: "distance",
      inputSchema: { properties: { point: { type: "array", items: { type: "number" } } } },
    });
  });

  it.skipIf(!sharedPresent)("every shared BFCL question imports into a valid dataset item", () => {
    const outDir = join(sample.root, "shared");
    const categories = ["simple", "multiple", "parallel", "parallel_multiple", "irrelevance"];
    const written = writeBfclDataset({ dataDir: DEFAULT_BFCL_DATA_DIR, categories, outDir });
    const { items, problems } = readDataset(written.map((w) => w.itemsFile));
    expect(problems).toEqual([]);
    expect(items.length).toBe(1240);
    const spread = { easy: 0, medium: 0, hard: 0 };
    for (const { item } of items) spread[item.difficulty]++;
    // The rule yields all three levels on real data, none of them a token few.
    for (const level of Object.values(spread)) expect(level).toBeGreaterThan(100);
  });
});
