import { describe, expect, it } from "vitest";
import { BoundedCache } from "./memo.ts";

describe("BoundedCache", () => {
  it("computes a key once and answers later calls from the cache", () => {
    const cache = new BoundedCache<number, string>(4);
    let computed = 0;
    const square = (n: number) => {
      computed += 1;
      return String(n * n);
    };
    expect(cache.get(3, square)).toBe("9");
    expect(cache.get(3, square)).toBe("9");
    expect(computed).toBe(1);
  });

  it("caches undefined results too", () => {
    const cache = new BoundedCache<string, undefined>(2);
    let computed = 0;
    cache.get("a", () => {
      computed += 1;
      return undefined;
    });
    cache.get("a", () => {
      computed += 1;
      return undefined;
    });
    expect(computed).toBe(1);
  });

  it("never holds more than its limit, forgetting the oldest entry first", () => {
    const cache = new BoundedCache<number, number>(3);
    for (let n = 0; n < 10; n++) cache.get(n, (key) => key);
    expect(cache.size).toBe(3);
    let recomputed = 0;
    cache.get(9, (key) => ++recomputed + key);
    expect(recomputed).toBe(0);
    expect(cache.get(0, (key) => ++recomputed + key)).toBe(1);
  });

  it("stores nothing when the computation throws", () => {
    const cache = new BoundedCache<string, number>(2);
    expect(() =>
      cache.get("bad", () => {
        throw new RangeError("no");
      }),
    ).toThrow(RangeError);
    expect(cache.size).toBe(0);
    expect(cache.get("bad", () => 1)).toBe(1);
  });
});
