/**
 * The multi-turn checker on the whole v4 sample: every entry's ground truth, replayed as a scripted
 * model's calls, passes (800/800); and on results that are not the ground truth (a call dropped, an
 * argument changed, an extra state-changing call, a call in the empty turn) its verdicts are BFCL's
 * own checker's, error type and message. Needs ../shared/bfcl/v4 (and python3 with mpmath for the
 * agreement); without them it skips and says why.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_BFCL_V4_DATA_DIR } from "../paths.ts";
import { sharedBfclPresent } from "../testing/shared.ts";
import { checkDecodedTurns } from "./checker.ts";
import { MULTI_TURN_CATEGORIES, readCategory } from "./entries.ts";
import { checkerAgreement } from "./testing/checker-fixtures.ts";
import { pythonForOracle } from "./testing/parity.ts";

const present = sharedBfclPresent("BFCL v4 multi-turn checker test", DEFAULT_BFCL_V4_DATA_DIR);
const oracle = pythonForOracle();
if (present && "missing" in oracle) console.warn(`BFCL v4 checker agreement test skipped: ${oracle.missing}`);

describe.skipIf(!present)("the multi-turn checker on ../shared/bfcl/v4", () => {
  it.each(MULTI_TURN_CATEGORIES)("%s: the ground truth replayed passes, every entry", (category) => {
    const { entries, groundTruth } = readCategory(DEFAULT_BFCL_V4_DATA_DIR, category);
    const failed = entries
      .map((entry) => {
        const truth = groundTruth.get(entry.id)!;
        const verdict = checkDecodedTurns(
          entry,
          truth,
          truth.map((calls) => (calls.length > 0 ? [calls] : [])),
        );
        return verdict.valid ? undefined : `${entry.id}: ${verdict.errorType} ${verdict.errorMessage}`;
      })
      .filter((failure) => failure !== undefined);
    expect(entries).toHaveLength(200);
    expect(failed).toEqual([]);
  });

  it.skipIf("missing" in oracle).each(MULTI_TURN_CATEGORIES)(
    "%s: verdicts agree with BFCL's Python checker on altered results",
    (category) => {
      const report = checkerAgreement((oracle as { python: string }).python, category);
      expect(report.fixtures).toBeGreaterThanOrEqual(600);
      // the fixtures must exercise failing verdicts, not only passing ones
      expect(report.failing).toBeGreaterThan(report.fixtures / 2);
      expect(report.disagreements.slice(0, 5)).toEqual([]);
    },
  );
});
