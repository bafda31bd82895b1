/** The unseen-tool check of test/unit/sim-unseen-tools-sample.slow.test.ts over the whole dataset (default matrix, sim:slm-3b). */
import { describe, expect, it } from "vitest";
import { REAL_TOOLS, slm3bDefaultRecords } from "../support/unseen-run.ts";
import { unexplainedUnseenCalls, unseenCalls } from "../support/unseen-tools.ts";

describe("sim:slm-3b over the default matrix and the whole dataset", () => {
  it("calls no real tool its prompt did not show, except through a made-up name", async () => {
    const records = await slm3bDefaultRecords([]);
    expect(records.some((record) => record.score.visibility?.shown === false)).toBe(true);
    expect(unexplainedUnseenCalls(records, REAL_TOOLS)).toEqual([]);
    // made-up names do land on real unseen tools now and then; the list says which
    expect(unseenCalls(records, REAL_TOOLS).length).toBeLessThan(records.length / 100);
  }, 1_200_000);
});
