/**
 * Suites (src/bench/dataset/suite.ts): the sidecar's validation, the clock the planner is told (from the
 * suite, or none), and a dataset that needs a server the suite does not connect stopping before any run.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MOCK_NOW } from "../../mock-servers/kit/types.ts";
import { loadSuite, SuiteError, suiteOf } from "../../src/bench/dataset/suite.ts";
import { worldContext } from "../../src/bench/dataset/world-clock.ts";
import { runBench } from "../../src/bench/run/bench.ts";
import { benchRequest, REPO_ROOT, runCli, strictRecordLines } from "../support/bench-run.ts";

const GITHUB_ITEM = readFileSync(join(REPO_ROOT, "datasets/github.jsonl"), "utf8")
  .split("\n")
  .find((line) => line.includes('"id":"gh-s002"'))!;
const SLACK_ITEM = readFileSync(join(REPO_ROOT, "datasets/slack-notion.jsonl"), "utf8")
  .split("\n")
  .find((line) => line.includes('"id": "sl-s001"'))!;

/** A dataset folder of its own: the given items in d.jsonl, and the suite (when given) beside them. */
function datasetFolder(lines: string[], suite?: string): string {
  const dir = mkdtempSync(join(tmpdir(), "onsetlab-suite-"));
  writeFileSync(join(dir, "d.jsonl"), `${lines.join("\n")}\n`);
  if (suite !== undefined) writeFileSync(join(dir, "suite.yaml"), suite);
  return dir;
}

describe("suite files", () => {
  it("datasets/suite.yaml carries the mock servers' clock", () => {
    const suite = suiteOf([join(REPO_ROOT, "datasets/github.jsonl")]);
    expect(new Date(suite!.clock!).getTime()).toBe(MOCK_NOW.getTime());
    expect(worldContext(suite!.clock)).toBe("Today is Monday, March 16, 2026, 09:30 UTC.");
    expect(worldContext("none")).toBeUndefined();
  });

  it.each([
    ["clock: 2026-03-16T09:30:00Z\ntoday: monday\n", /suite\.yaml: unknown key "today"/],
    ["clock: next tuesday\n", /suite\.yaml: clock must be an ISO date-time/],
    ["clock: 2026-13-45T09:30:00Z\n", /suite\.yaml: clock must be an ISO date-time/],
    ["exposure: some\n", /suite\.yaml: exposure must be one of own, session, all/],
    ["servers: github\n", /suite\.yaml: servers must be a list/],
  ])("rejects %j with one line naming the file", (text, message) => {
    const dir = datasetFolder([GITHUB_ITEM], text);
    const load = () => loadSuite(join(dir, "suite.yaml"));
    expect(load).toThrow(SuiteError);
    expect(load).toThrow(message);
  });

  it("a file's own <name>.suite.yaml wins over its folder's suite.yaml", () => {
    const dir = datasetFolder([GITHUB_ITEM], "clock: none\n");
    writeFileSync(join(dir, "d.suite.yaml"), "clock: 2025-01-02T03:04:00Z\nservers: [github]\n");
    expect(suiteOf([join(dir, "d.jsonl")])).toMatchObject({ clock: "2025-01-02T03:04:00Z", servers: ["github"] });
  });
});

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

  it("an item needing a server the suite does not connect stops before the run (exit 2, one line, no run)", async () => {
    const dataset = datasetFolder([GITHUB_ITEM, SLACK_ITEM], "servers: [github]\n");
    const results = mkdtempSync(join(tmpdir(), "onsetlab-suite-runs-"));
    const outcome = await runCli(["bench", "--model", "sim:slm-3b", "--config", "onsetlab", "--dataset", dataset], {
      ONSETLAB_RESULTS_DIR: results,
    });
    expect(outcome.code).toBe(2);
    expect(outcome.stderr.trim().split("\n")).toHaveLength(1);
    expect(outcome.stderr).toMatch(/sl-s001.*needs server "slack", which the suite does not connect/);
    expect(readdirSync(results)).toEqual([]);
  });
});
