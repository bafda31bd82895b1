/**
 * The honest simulator through the whole bench (a stratified sample, default matrix, sim:slm-3b): no
 * call of a real tool the prompt did not show, except a made-up name of a shown tool that happens to be
 * real. The whole dataset: test/slow/sim-unseen-tools.slow.test.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeSample } from "../support/sample.ts";
import { REAL_TOOLS, slm3bDefaultRecords } from "../support/unseen-run.ts";
import { unexplainedUnseenCalls } from "../support/unseen-tools.ts";

const dir = mkdtempSync(join(tmpdir(), "unseen-sample-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("sim:slm-3b over the default matrix (sample)", () => {
  it("calls no real tool its prompt did not show, except through a made-up name", async () => {
    const { file } = writeSample(dir, 2);
    const records = await slm3bDefaultRecords([file]);
    // the filter did hide gold tools in this sample: the simulator had the chance to call them
    expect(records.some((record) => record.score.visibility?.shown === false)).toBe(true);
    expect(unexplainedUnseenCalls(records, REAL_TOOLS)).toEqual([]);
  }, 120_000);
});
