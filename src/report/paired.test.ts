import { describe, expect, it } from "vitest";
import { mcnemarExact, pairedDifferenceCI } from "../bench/stats/mcnemar.ts";
import { type BinaryValue, decodeBinary, decodePooled, type PooledValue } from "./outcomes.ts";
import { align, pairedBinary, pairedPooled } from "./paired.ts";

const keys = (n: number) => Array.from({ length: n }, (_, i) => `i${i}#0`);

function binary(before: string, after: string) {
  const b = decodeBinary(before);
  const a = decodeBinary(after);
  return pairedBinary(align(keys(b.length), b, keys(a.length), a), { before: b, after: a });
}

describe("pairedBinary", () => {
  it("counts the discordant pairs and tests them with McNemar", () => {
    //          both, onlyBefore ×3, onlyAfter ×1, neither, n/a on one side
    const change = binary("1111100.", "1000110.");
    expect(change).toMatchObject({ pairs: 7, up: 1, down: 3 });
    expect(change.pValue).toBe(mcnemarExact(1, 3));
    expect(change.difference).toEqual(pairedDifferenceCI({ both: 2, onlyA: 3, onlyB: 1, neither: 1 }));
    expect(change.before).toMatchObject({ k: 5, n: 7 });
    expect(change.after).toMatchObject({ k: 3, n: 7 });
    expect(change.changedKeys).toEqual(["i1#0", "i2#0", "i3#0", "i5#0"]);
  });

  it("pairs by key, not by position", () => {
    const before: BinaryValue[] = [true, false];
    const after: BinaryValue[] = [false, true, true];
    const change = pairedBinary(align(["a", "b"], before, ["c", "b", "a"], after), { before, after });
    expect(change).toMatchObject({ pairs: 2, up: 1, down: 0, changedKeys: ["b"] });
  });

  it("sees a change from applies to does not apply, without testing it", () => {
    const change = binary("1.", ".1");
    expect(change).toMatchObject({ pairs: 0, difference: null, pValue: 1, changedKeys: ["i0#0", "i1#0"] });
  });
});

describe("pairedPooled", () => {
  it("runs the sign test over items whose accuracy moved", () => {
    const before: PooledValue[] = decodePooled("2/2 1/2 3/4 0/0 1/1");
    const after: PooledValue[] = decodePooled("1/2 2/2 1/4 1/1 1/1");
    const change = pairedPooled(align(keys(5), before, keys(5), after), { before, after });
    expect(change).toMatchObject({ pairs: 4, up: 1, down: 2, difference: null });
    expect(change.pValue).toBe(mcnemarExact(1, 2));
    expect(change.before).toMatchObject({ k: 7, n: 9 });
    expect(change.after).toMatchObject({ k: 6, n: 10 });
  });
});
