/**
 * docs/ci/bench-sharded.yml, run here: its bench step once per shard of its job matrix, then its merge
 * and report steps, through the CLI program in this process. The merged run must equal the same bench
 * command without --shard (timing aside). The items are narrowed with --limit so the test stays quick.
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REPO_ROOT, recordContents } from "../support/bench-run.ts";
import { runInProcess } from "../support/cli-in-process.ts";
import { tempResultsDir } from "../support/results-dir.ts";

interface Step {
  name?: string;
  run?: string;
}
interface Workflow {
  jobs: Record<string, { strategy?: { matrix: { shard: number[] } }; env?: Record<string, string>; steps: Step[] }>;
}

const workflow = parse(readFileSync(join(REPO_ROOT, "docs/ci/bench-sharded.yml"), "utf8")) as Workflow;
const root = tempResultsDir("ci-workflow-");
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A step's `run` line as CLI arguments (after `pnpm`), with the workflow's expressions filled in. */
function commandOf(job: string, name: string, values: Record<string, string>): string[] {
  const step = workflow.jobs[job]!.steps.find((candidate) => candidate.name === name);
  if (!step?.run) throw new Error(`docs/ci/bench-sharded.yml: no step "${name}" in job ${job}`);
  const line = step.run.replace(/\$\{\{\s*([\w.]+)\s*\}\}|\$\(([^)]*)\)/g, (whole, expression, shell) => {
    const value = values[expression ?? shell];
    if (value === undefined) throw new Error(`no value for ${whole}`);
    return value;
  });
  const [tool, ...args] = line.trim().split(/\s+/);
  expect(tool).toBe("pnpm");
  return args;
}

describe("the sharded CI workflow", () => {
  it("keeps its results apart and shards over every job of its matrix", () => {
    const shards = workflow.jobs.bench!.strategy!.matrix.shard;
    expect(shards).toEqual(Array.from({ length: shards.length }, (_, index) => index + 1));
    const bench = commandOf("bench", "bench one shard", {
      "inputs.model": "sim:slm-3b",
      "inputs.matrix": "default",
      "matrix.shard": "1",
    });
    expect(bench).toContain(`1/${shards.length}`);
    expect(workflow.jobs.bench!.env?.ONSETLAB_RESULTS_DIR).toBe(workflow.jobs.merge!.env?.ONSETLAB_RESULTS_DIR);
  });

  it("merges its shards into the run an unsharded bench makes", async () => {
    const shards = workflow.jobs.bench!.strategy!.matrix.shard;
    const inputs = { "inputs.model": "sim:slm-3b", "inputs.matrix": "default" };
    const narrow = ["--limit", "6", "--json"];
    for (const shard of shards) {
      const outcome = await runInProcess([
        ...commandOf("bench", "bench one shard", { ...inputs, "matrix.shard": String(shard) }),
        ...narrow,
      ]);
      expect(outcome.code, outcome.stderr).toBe(0);
    }
    const shardRuns = readdirSync(root).sort();
    expect(shardRuns).toHaveLength(shards.length);

    const merged = await runInProcess(commandOf("merge", "merge the shards", { "ls shards": shardRuns.join(" ") }));
    expect(merged.code, merged.stderr).toBe(0);
    const report = await runInProcess(
      [...commandOf("merge", "report", {}).map((arg) => (arg === "report" ? arg : arg))].map((arg, index, all) =>
        all[index - 1] === "--out" ? join(root, "report") : arg,
      ),
    );
    expect(report.code, report.stderr).toBe(0);

    const unsharded = commandOf("bench", "bench one shard", { ...inputs, "matrix.shard": "1" });
    const whole = await runInProcess([...unsharded.slice(0, unsharded.indexOf("--shard")), ...narrow]);
    expect(whole.code, whole.stderr).toBe(0);
    const wholeRun = readdirSync(root).find((id) => ![...shardRuns, "merged", "report"].includes(id))!;
    expect(recordContents(join(root, "merged"))).toEqual(recordContents(join(root, wholeRun)));
  });
});
