/**
 * Tool-call state checks in a run: the runner calls the read-only tool after the query, on the same
 * (not yet reset) server, and the scorer's end state uses the outcome; a check on a tool that writes
 * stops the run before any task (bad input, exit 2).
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DatasetError } from "../../src/bench/dataset/errors.ts";
import type { DatasetItem, StateCheckSpec } from "../../src/bench/dataset/types.ts";
import { runBench } from "../../src/bench/run/bench.ts";
import { benchRequest, REPO_ROOT, strictRecordLines } from "../support/bench-run.ts";

const TITLE = "Settings page forgets the selected time zone";
const base = JSON.parse(
  readFileSync(join(REPO_ROOT, "datasets/github.jsonl"), "utf8")
    .split("\n")
    .find((line) => line.includes('"id":"gh-s029"'))!,
) as DatasetItem;
const listIssues = { server: "github", tool: "list_issues", args: { owner: "acme", repo: "webapp" } };

async function runWith(state: StateCheckSpec[]) {
  const dir = mkdtempSync(join(tmpdir(), "onsetlab-tcc-"));
  writeFileSync(join(dir, "d.jsonl"), `${JSON.stringify({ ...base, id: "tcc-1", state })}\n`);
  writeFileSync(join(dir, "suite.yaml"), "clock: 2026-03-16T09:30:00Z\n");
  const results = mkdtempSync(join(tmpdir(), "onsetlab-tcc-runs-"));
  const run = () =>
    runBench({
      request: benchRequest({ models: ["sim:oracle"], configs: ["onsetlab"], dataset: [dir] }),
      resultsRoot: results,
      threads: 1,
    });
  return { run, results };
}

describe("tool-call state checks in a run", () => {
  it("are run after the query and scored like the named checks (negate included)", async () => {
    const { run } = await runWith([
      { call: listIssues, expect: { contains: TITLE } },
      { call: listIssues, expect: { contains: "A title nobody wrote" }, negate: true },
    ]);
    const [record] = strictRecordLines((await run()).dir);
    expect(record!.score.state).toMatchObject({
      ok: true,
      checks: [
        { server: "github", pass: true, ok: true },
        { server: "github", pass: false, ok: true, negate: true },
      ],
    });
    expect(record!.score.taskSuccess).toBe(true);
  });

  it("fail the item when the end state is not what they expect", async () => {
    const { run } = await runWith([{ call: listIssues, expect: { contains: TITLE }, negate: true }]);
    const [record] = strictRecordLines((await run()).dir);
    expect(record!.score.state?.ok).toBe(false);
    expect(record!.score.taskSuccess).toBe(false);
  });

  it("on a tool that writes, stop the run before any task, leaving no run folder", async () => {
    const writing = {
      ...listIssues,
      tool: "issue_write",
      args: { method: "create", owner: "acme", repo: "webapp", title: "x" },
    };
    const { run, results } = await runWith([{ call: writing, expect: { contains: "x" } }]);
    await expect(run()).rejects.toThrow(DatasetError);
    await expect(run()).rejects.toThrow(/state\[0\] github\.issue_write: a state check must call a read-only tool/);
    expect(readdirSync(results)).toEqual([]);
  });
});
