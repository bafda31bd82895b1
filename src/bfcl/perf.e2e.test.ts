import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatBfclPerf, measureBfclScoring } from "./perf.ts";
import { type SampleDirs, writeSample } from "./testing/sample.ts";

let sample: SampleDirs;
beforeAll(() => {
  sample = writeSample();
});
afterAll(() => rmSync(sample.root, { recursive: true, force: true }));

// The figures themselves come from `pnpm bench:perf bfcl`; this checks the measuring runs what it says.
describe("perf bfcl", () => {
  it("times the scoring in-process and the command in fresh processes", async () => {
    const report = await measureBfclScoring({
      resultDirs: [sample.resultRoot],
      dataDir: sample.dataDir,
      runs: 1,
      benchMs: 50,
    });
    expect(report).toMatchObject({ models: 1, categories: 2, entries: 7 });
    expect(report.commands.map((c) => c.label)).toEqual([
      "pnpm bfcl score (esbuild + bundle)",
      "bundle: bfcl score",
      "bundle: start-up (--help)",
      "tsx: bfcl score",
      "tsx: start-up (--help)",
    ]);
    expect(report.commands[1]!.command).toContain(`bfcl score ${sample.resultRoot} --data ${sample.dataDir}`);
    for (const command of report.commands) expect(command.medianMs).toBeGreaterThan(0);
    expect(report.scoreMinMs).toBeLessThanOrEqual(report.scoreMeanMs);
    expect(formatBfclPerf(report)).toContain("1 models, 2 category files, 7 entries");
  }, 60_000);
});
