/**
 * A truncated run: its summary counts more records than the records file holds (a file cut short,
 * damaged members dropped). The service says so (`recordsRead`), and the viewer shows a warning.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { benchRequest } from "../../test/support/bench-run.ts";
import { runBench } from "../bench/run/bench.ts";
import { RUN_FILES } from "../bench/run/store.ts";
import { readRunLines } from "../bench/run/testing/run-lines.ts";
import { HarnessService } from "./service.ts";

describe("a truncated run", () => {
  it("reports how many records the items list reads when the summary counts others", async () => {
    const root = mkdtempSync(join(tmpdir(), "onsetlab-truncated-"));
    const { runId, dir, summary } = await runBench({
      request: benchRequest({ models: ["sim:oracle"], configs: ["onsetlab"], matrix: undefined, first: 6 }),
      resultsRoot: root,
    });
    const service = new HarnessService({ resultsRoot: root });
    expect(service.getRun(runId)).not.toHaveProperty("recordsRead");
    const lines = readRunLines(dir, "records");
    expect(lines).toHaveLength(summary.records);
    writeFileSync(join(dir, RUN_FILES.records), gzipSync(`${lines.slice(0, 4).join("\n")}\n`));
    const truncated = new HarnessService({ resultsRoot: root }).getRun(runId);
    expect(truncated.summary?.records).toBe(6);
    expect(truncated.recordsRead).toBe(4);
  });
});
