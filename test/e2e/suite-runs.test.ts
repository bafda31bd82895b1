/**
 * Runs that take their clock and servers from the suite (src/bench/dataset/suite.ts): the clock the planner
 * is told (from the suite, or none), and a dataset that needs a server the suite does not connect stopping
 * before any run. Whole benches, in this process: the e2e project, whose time limit a loaded machine's
 * slower bench stays far inside (the unit project's 5 s did not).
 */
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBench } from "../../src/bench/run/bench.ts";
import { EXIT, reportError } from "../../src/cli/exit.ts";
import { InputError } from "../../src/errors.ts";
import { benchRequest, strictRecordLines } from "../support/bench-run.ts";
import { datasetFolder, GITHUB_ITEM, SLACK_ITEM } from "../support/suite-folder.ts";

describe("a run takes its clock and servers from the suite", () => {
  const run = async (suite: string | undefined) => {
    const dataset = datasetFolder([GITHUB_ITEM], suite);
    const { dir, manifest } = await runBench({
      request: benchRequest({ configs: ["onsetlab"], dataset: [dataset] }),
      resultsRoot: mkdtempSync(join(tmpdir(), "onsetlab-suite-runs-")),
      threads: 1,
    });
    return { manifest, prompts: JSON.stringify(strictRecordLines(dir)[0]!.result) };
  };

  it("the suite's clock is the planner's today, and run.json records the suite", async () => {
    const { manifest, prompts } = await run("name: mine\nclock: 2025-01-02T03:04:00Z\nservers: [github, builtin]\n");
    expect(prompts).toContain("Today is Thursday, January 2, 2025, 03:04 UTC.");
    expect(manifest.suite).toMatchObject({
      name: "mine",
      clock: "2025-01-02T03:04:00Z",
      servers: ["github", "builtin"],
    });
  });

  it("clock: none, and a dataset without a suite, give no date line", async () => {
    for (const suite of ["clock: none\n", undefined]) {
      const { prompts } = await run(suite);
      expect(prompts).toContain("get_me");
      expect(prompts).not.toContain("Today is");
    }
  });

  // in this process: the exit code is reportError's mapping of the InputError
  it("an item needing a server the suite does not connect stops before the run (exit 2, one line, no run)", async () => {
    const dataset = datasetFolder([GITHUB_ITEM, SLACK_ITEM], "servers: [github]\n");
    const results = mkdtempSync(join(tmpdir(), "onsetlab-suite-runs-"));
    const error = await runBench({
      request: benchRequest({ models: ["sim:slm-3b"], configs: ["onsetlab"], dataset: [dataset] }),
      resultsRoot: results,
      threads: 1,
    }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(InputError);
    const lines: string[] = [];
    expect(reportError(error, (line) => lines.push(line))).toBe(EXIT.badInput);
    expect(lines.join("").trim().split("\n")).toHaveLength(1);
    expect(lines.join("")).toMatch(/sl-s001.*needs server "slack", which the suite does not connect/);
    expect(readdirSync(results)).toEqual([]);
  });
});
