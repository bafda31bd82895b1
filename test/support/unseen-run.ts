/** A default-matrix `sim:slm-3b` run for the unseen-tool check (unit tier: a sample; slow tier: everything). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mockServerSpecs } from "../../mock-servers/index.ts";
import { runBench } from "../../src/bench/run/bench.ts";
import type { RunRecord } from "../../src/bench/run/run-file-types.ts";
import { benchRequest, strictRecordLines } from "./bench-run.ts";

export const REAL_TOOLS: ReadonlySet<string> = new Set(
  Object.values(mockServerSpecs).flatMap((spec) => spec.tools.map((tool) => tool.name)),
);

/** The run's records; `dataset` empty = the whole dataset. */
export async function slm3bDefaultRecords(dataset: string[]): Promise<RunRecord[]> {
  const root = mkdtempSync(join(tmpdir(), "unseen-tools-"));
  try {
    const outcome = await runBench({ request: benchRequest({ models: ["sim:slm-3b"], dataset }), resultsRoot: root });
    if (outcome.failures.length > 0) throw new Error(`harness failures: ${outcome.failures[0]!.message}`);
    return strictRecordLines(outcome.dir);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
