import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runBench } from "../../src/bench/run/bench.ts";
import { loadModelsConfig, matrixConfigs } from "../../src/config/models-yaml.ts";
import { benchRequest, strictRecordLines } from "../support/bench-run.ts";
import { writeSample } from "../support/sample.ts";

const root = mkdtempSync(join(tmpdir(), "bench-oracle-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * `pnpm bench --model sim:oracle --matrix all` on a stratified sample (every category × server): a
 * model that is never wrong must succeed on every item whose gold tools its prompt showed — anything
 * less is a harness bug (the router, a prompt, the executor, the scorer, or an item no model could
 * pass through the pipeline). An item whose gold tool the filter or the session hid fails as
 * `tool_not_shown`, never as a model mistake or a harness failure.
 */
describe("sim:oracle over every configuration", () => {
  it("succeeds wherever the gold tools were shown; elsewhere fails as tool_not_shown", async () => {
    const { file, items } = writeSample(root, 3);
    const outcome = await runBench({
      request: benchRequest({ models: ["sim:oracle"], matrix: "all", dataset: [file] }),
      resultsRoot: root,
    });
    const configs = matrixConfigs(loadModelsConfig(), "all");
    // a task the harness could not finish has no record: its message says why
    expect(outcome.failures.slice(0, 3)).toEqual([]);
    expect(outcome.summary.records).toBe(configs.length * items.length);
    const records = strictRecordLines(outcome.dir);
    const wrong = records.flatMap((record) => {
      const shown = record.score.visibility?.shown !== false;
      const ok = shown ? record.score.taskSuccess : record.score.failures[0] === "tool_not_shown";
      return ok ? [] : [{ key: record.key, shown, failures: record.score.failures }];
    });
    expect(wrong.slice(0, 5)).toEqual([]);
    // the sample has items whose gold tools a filter hid, and every item with calls is judged
    expect(records.some((record) => record.score.visibility?.shown === false)).toBe(true);
    const row = (config: string) => outcome.summary.rows.find((candidate) => candidate.config === config)!;
    expect(row("native").goldVisible.value).toBe(1);
    // fewer tools connected, fewer hidden: the session shows more gold tools than all servers at once
    expect(row("onsetlab").goldVisible.value!).toBeGreaterThan(row("all-servers").goldVisible.value!);
  }, 600_000);
});
