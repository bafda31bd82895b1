import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runBench } from "../../src/bench/run/bench.ts";
import { RUN_FILES, readJsonl } from "../../src/bench/run/store.ts";
import { sharedBfclPresent } from "../../src/bfcl/testing/shared.ts";
import { benchRequest } from "../support/bench-run.ts";

const root = mkdtempSync(join(tmpdir(), "bench-bfcl-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// `--dataset bfcl:…` reads the shared BFCL sample (its folder is not an option of the bench)
describe.skipIf(!sharedBfclPresent("bench --dataset bfcl test"))("pnpm bench --dataset bfcl:<category>", () => {
  it("runs BFCL questions through the pipeline, each against its own function set", async () => {
    const outcome = await runBench({
      request: benchRequest({
        models: ["sim:oracle"],
        configs: ["rewoo", "native", "jsonl"],
        matrix: undefined,
        dataset: ["bfcl:simple,parallel"],
        filter: { category: ["single", "parallel"] },
        first: 12,
      }),
      resultsRoot: root,
    });
    expect(outcome.summary.records).toBe(36);
    for (const row of outcome.summary.rows) expect(row.taskSuccess.k, row.config).toBe(row.n);
    const { rows } = readJsonl<{ result: { tools: { available: string[] } }; itemId: string }>(
      join(outcome.dir, RUN_FILES.records),
    );
    // every query saw its own question's functions only
    expect(new Set(rows.map((row) => row.result.tools.available.join(","))).size).toBeGreaterThan(5);
    expect(rows.every((row) => row.result.tools.available.length <= 4)).toBe(true);
  }, 120_000);

  it("names an unknown category", async () => {
    const run = runBench({ request: benchRequest({ dataset: ["bfcl:nonsense"] }), resultsRoot: root });
    await expect(run).rejects.toThrow(/unknown BFCL category "nonsense"/);
  });
});
