import { describe, expect, it } from "vitest";
import { closeItems } from "./close-items.ts";
import { loadDataset } from "./load.ts";

const items = loadDataset().map((entry) => entry.item);

describe("closeItems", () => {
  it("ranks dataset queries by the words they share with a free query", () => {
    const target = items.find((item) => item.query.split(" ").length >= 6)!;
    // the same request in other words around it: the item itself shares the most
    const close = closeItems(items, `please, ${target.query.toUpperCase()} — thanks`, 3);
    expect(close[0]!.id).toBe(target.id);
    expect(close.length).toBe(3);
  });

  it("offers nothing when no word of three letters or more is shared", () => {
    expect(closeItems(items, "zq xv qqqzzz")).toEqual([]);
  });
});
