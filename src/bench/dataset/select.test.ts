import { describe, expect, it } from "vitest";
import { InputError } from "../../errors.ts";
import { loadDataset } from "./load.ts";
import { narrowItems, stratifiedSample } from "./select.ts";
import type { DatasetItem } from "./types.ts";

const items: DatasetItem[] = loadDataset().map((entry) => entry.item);
const categories = [...new Set(items.map((item) => item.category))];
const countOf = (chosen: readonly DatasetItem[], category: string) =>
  chosen.filter((item) => item.category === category).length;

describe("--limit: a sample over the categories", () => {
  it("takes every category when N allows, each in about its share, in file order", () => {
    expect(categories.length).toBeGreaterThan(3);
    const chosen = stratifiedSample(items, 100, 1);
    expect(chosen).toHaveLength(100);
    for (const category of categories) {
      const share = (100 * countOf(items, category)) / items.length;
      expect(countOf(chosen, category), category).toBeGreaterThanOrEqual(1);
      // one each first, then the shares of the rest: at most two off the exact share
      expect(Math.abs(countOf(chosen, category) - share), category).toBeLessThanOrEqual(2);
    }
    const positions = chosen.map((item) => items.indexOf(item));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it("a small N still spans the categories, unlike the file's first N", () => {
    const n = categories.length;
    expect(new Set(stratifiedSample(items, n, 1).map((item) => item.category)).size).toBe(n);
    expect(new Set(items.slice(0, n).map((item) => item.category)).size).toBeLessThan(n);
  });

  it("is the same for the same seed and draws other items for another seed", () => {
    const ids = (seed: number) => stratifiedSample(items, 40, seed).map((item) => item.id);
    expect(ids(3)).toEqual(ids(3));
    expect(ids(4)).not.toEqual(ids(3));
  });

  it("takes everything when N is at least the item count", () => {
    const few = items.slice(0, 5);
    expect(stratifiedSample(few, 9, 1)).toEqual(few);
  });
});

describe("narrowItems", () => {
  it("--first N is file order; --limit with --first is bad input", () => {
    expect(narrowItems(items, {}, { first: 7, seed: 1 })).toEqual(items.slice(0, 7));
    expect(narrowItems(items, {}, { limit: 7, seed: 1 })).toEqual(stratifiedSample(items, 7, 1));
    expect(() => narrowItems(items, {}, { limit: 7, first: 7, seed: 1 })).toThrow(InputError);
  });
});
