/**
 * The eight environments against BFCL's Python originals on every ground-truth call of all 800
 * multi-turn entries: each result string and each instance's public state after each turn identical.
 * Needs ../shared/bfcl/v4 and a python3 with mpmath (.ci/run installs Debian's python3-mpmath);
 * without them it skips and says why.
 */
import { describe, expect, it } from "vitest";
import { MULTI_TURN_CATEGORIES } from "./entries.ts";
import { compareCategory, pythonForOracle } from "./testing/parity.ts";

const oracle = pythonForOracle();
if ("missing" in oracle) console.warn(`BFCL v4 environment parity test skipped: ${oracle.missing}`);

describe.skipIf("missing" in oracle)("the TypeScript environments against BFCL's Python originals", () => {
  it.each(MULTI_TURN_CATEGORIES)("%s: every ground-truth call and every turn's state identical", (category) => {
    const report = compareCategory((oracle as { python: string }).python, category);
    expect(report.entries).toBe(200);
    expect(report.calls).toBeGreaterThan(1000);
    expect(report.mismatches.slice(0, 5)).toEqual([]);
  });
});
