/**
 * The must-show of BFCL multi-turn through the CLI: `pnpm bench --model sim:oracle --dataset
 * bfcl:multi_turn_base --config native,jsonl` passes all 200 entries under BFCL's checker in both
 * configurations, with no call in a turn whose ground truth is empty.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_BFCL_V4_DATA_DIR } from "../../src/bfcl/paths.ts";
import { sharedBfclPresent } from "../../src/bfcl/testing/shared.ts";
import { runCli } from "../support/bench-run.ts";

const present = sharedBfclPresent("BFCL multi-turn oracle CLI run", DEFAULT_BFCL_V4_DATA_DIR);
const results = mkdtempSync(join(tmpdir(), "onsetlab-bfcl-mt-"));
afterAll(() => rmSync(results, { recursive: true, force: true }));

describe.skipIf(!present)("pnpm bench --dataset bfcl:multi_turn_base", () => {
  it("the oracle passes every entry in native and jsonl", async () => {
    const outcome = await runCli(
      ["bench", "--model", "sim:oracle", "--dataset", "bfcl:multi_turn_base", "--config", "native,jsonl", "--json"],
      { ONSETLAB_RESULTS_DIR: results },
    );
    expect(outcome.stderr).not.toMatch(/error/i);
    expect(outcome.code).toBe(0);
    const summary = JSON.parse(outcome.stdout) as {
      conversations: {
        rows: {
          config: string;
          bfcl: { accuracy: { k: number; n: number }; errorTypes: object; callsInEmptyTurns: number };
        }[];
      };
    };
    const rows = summary.conversations.rows;
    expect(rows.map((row) => row.config)).toEqual(["native", "jsonl"]);
    for (const { bfcl: figures } of rows) {
      expect(figures.accuracy).toMatchObject({ k: 200, n: 200 });
      expect(figures.errorTypes).toEqual({});
      expect(figures.callsInEmptyTurns).toBe(0);
    }
  }, 600_000);
});
