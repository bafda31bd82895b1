import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_BFCL_DATA_DIR } from "./paths.ts";
import { scoreResultDir } from "./score-dir.ts";

// The shared BFCL sample sits beside the repo (../shared/bfcl); without it there is nothing to agree with.
const resultRoot = join(DEFAULT_BFCL_DATA_DIR, "..", "result");
const present = existsSync(resultRoot) && existsSync(DEFAULT_BFCL_DATA_DIR);
if (!present) console.warn(`BFCL agreement test skipped: no BFCL sample at ${resultRoot}`);
const models = present ? readdirSync(resultRoot) : [];

describe.skipIf(!present)("agreement with BFCL's own verdicts on ../shared/bfcl", () => {
  it("finds both models and all four scored categories", () => {
    expect(models.length).toBeGreaterThanOrEqual(2);
  });

  it.each(models)("%s: same verdict on every entry, same accuracy as each score file", (model) => {
    const scores = scoreResultDir(join(resultRoot, model), { dataDir: DEFAULT_BFCL_DATA_DIR });
    expect(scores.map((s) => s.category).sort()).toEqual(["multiple", "parallel", "parallel_multiple", "simple"]);
    for (const s of scores) {
      const a = s.agreement!;
      expect(a, `${s.category}: score file found`).toBeDefined();
      expect(a.disagreements, `${s.category}: disagreements`).toEqual([]);
      expect(a.agree).toBe(s.total);
      expect(s.correct).toBe(a.bfclCorrect);
      expect(s.total).toBe(a.bfclTotal);
      expect(s.accuracy).toBeCloseTo(a.bfclAccuracy, 10);
      // Not required for agreement, but the rules are the same: so are the error types.
      expect(a.sameErrorType).toBe(a.bothFailing);
    }
  });
});
