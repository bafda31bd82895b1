import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { AgentConfig } from "../../src/agent/index.ts";
import { runBench } from "../../src/bench/run/bench.ts";
import { loadModelsConfig, matrixConfigs } from "../../src/config/models-yaml.ts";
import { benchRequest, strictRecordLines } from "../support/bench-run.ts";
import { writeSample } from "../support/sample.ts";

const root = mkdtempSync(join(tmpdir(), "bench-oracle-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * Why a perfect model may still fail an item whose gold tools it was shown: OnsetLab's own axes limit
 * what its pipeline can do — a one-call plan for an item that needs several calls, or cut at one of its
 * stops (`---` inside a markdown table); the solver's raw data capped per result (the answer only); the
 * per-tool write guard blocking a second legitimate write; OnsetLab's rules router answering directly where
 * no MCP tool is connected, since it asks the model's intent check only when one is; OnsetLab's plan
 * parser rewriting a value as it reads it (`word:digit` becomes `word=digit` anywhere in the plan, only quoted
 * positional values). Undefined: no limit explains it.
 */
function pipelineLimit(
  config: AgentConfig,
  path: string,
  goldCalls: number,
  failures: readonly string[],
): string | undefined {
  const only = (kind: string) => failures.length === 1 && failures[0] === kind;
  if (config.router === "onsetlab" && path === "direct" && failures.includes("missing_call")) return "rules router";
  if (config.parser === "onsetlab" && failures.includes("wrong_value")) return "plan parser";
  if (config.planSteps === "one" && (goldCalls >= 2 || failures.includes("parse_failure"))) return "one-step plan";
  if (config.solverData === "per_result" && only("answer_mismatch")) return "raw solver data";
  if (config.writeGuard === "per_tool" && failures.includes("blocked_duplicate_write")) return "per-tool write guard";
  return undefined;
}

/**
 * `pnpm bench --model sim:oracle --matrix all` on a stratified sample (every category × server): a
 * model that is never wrong must succeed on every item whose gold tools its prompt showed, unless one
 * of OnsetLab's own limits (above) explains the failure — anything else is a harness bug (the router, a
 * prompt, the executor, the scorer, or an item no model could pass through the pipeline). An item whose
 * gold tool the filter or the session hid fails as `tool_not_shown`, never as a model mistake or a
 * harness failure. This project's pipeline (`onsetlab-plus`) and the baselines have no such limit.
 */
describe("sim:oracle over every configuration", () => {
  it("succeeds wherever the gold tools were shown, but for OnsetLab's limits; elsewhere fails as tool_not_shown", async () => {
    const { file, items } = writeSample(root, 3);
    const outcome = await runBench({
      request: benchRequest({ models: ["sim:oracle"], matrix: "all", dataset: [file] }),
      resultsRoot: root,
    });
    const configs = matrixConfigs(loadModelsConfig(), "all");
    // a task the harness could not finish has no record: its message says why
    expect(outcome.failures.slice(0, 3)).toEqual([]);
    expect(outcome.summary.records).toBe(configs.length * items.length);
    const goldCalls = new Map(items.map((item) => [item.id, item.calls.length]));
    const records = strictRecordLines(outcome.dir);
    const limited = new Map<string, number>();
    const wrong = records.flatMap((record): { key: string; shown: boolean; failures: readonly string[] }[] => {
      const shown = record.score.visibility?.shown !== false;
      if (!shown)
        return record.score.failures[0] === "tool_not_shown"
          ? []
          : [{ key: record.key, shown, failures: record.score.failures }];
      if (record.score.taskSuccess) return [];
      const limit = pipelineLimit(
        record.result.config,
        record.result.path,
        goldCalls.get(record.itemId) ?? 0,
        record.score.failures,
      );
      if (limit === undefined) return [{ key: record.key, shown, failures: record.score.failures }];
      limited.set(record.config, (limited.get(record.config) ?? 0) + 1);
      return [];
    });
    expect(wrong.slice(0, 5)).toEqual([]);
    for (const config of ["onsetlab-plus", "native", "jsonl"]) expect(limited.get(config)).toBeUndefined();
    // the limits are real: OnsetLab's one-step planner loses multi-call items
    expect(limited.get("onsetlab")).toBeGreaterThan(0);
    // the sample has items whose gold tools a filter hid, and every item with calls is judged
    expect(records.some((record) => record.score.visibility?.shown === false)).toBe(true);
    const row = (config: string) => outcome.summary.rows.find((candidate) => candidate.config === config)!;
    expect(row("native").goldVisible.value).toBe(1);
    // fewer tools connected, fewer hidden: the item's own servers show more gold tools than its session,
    // which shows more than all servers at once
    expect(row("own-servers").goldVisible.value!).toBeGreaterThan(row("onsetlab").goldVisible.value!);
    expect(row("onsetlab").goldVisible.value!).toBeGreaterThan(row("all-servers").goldVisible.value!);
  }, 600_000);
});
