/**
 * Small runs for the report's unit tests, scored by the real scorer and summarized by the real
 * summary code: `succeed` says which items get the gold call (the others a wrong title), so a test
 * knows every number the report should show.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type AgentConfigInput, resolveAgentConfig } from "../../agent/types.ts";
import { compareConfigurations, type RunSummary } from "../../bench/run/compare-configs.ts";
import type { RunManifest } from "../../bench/run/run-file-types.ts";
import { RUN_FORMAT, SUMMARY_FORMAT } from "../../bench/run/run-format.ts";
import { RUN_FILES } from "../../bench/run/store.ts";
import { writeRunLines } from "../../bench/run/testing/run-lines.ts";
import { scoreItem } from "../../bench/scoring/score-item.ts";
import { type ScoredRecord, summarize } from "../../bench/scoring/summarize.ts";
import { CREATE_ISSUE, call, item, TOOLS, trace } from "../../bench/scoring/testing/fixtures.ts";
import type { LoadedRun } from "../run-set.ts";

export interface SyntheticConfig {
  name: string;
  /** Indexes of the items this configuration gets right. */
  succeed: readonly number[];
  agent?: AgentConfigInput;
}

export interface SyntheticRunOptions {
  id: string;
  model?: string;
  simulated?: boolean;
  items?: number;
  configs: readonly SyntheticConfig[];
}

export interface SyntheticRun {
  run: LoadedRun;
  records: ScoredRecord[];
}

export function syntheticRun(options: SyntheticRunOptions): SyntheticRun {
  const model = options.model ?? "sim:slm-3b";
  const items = Array.from({ length: options.items ?? 20 }, (_, i) =>
    item({ id: `gh-${String(i).padStart(3, "0")}`, calls: [CREATE_ISSUE], category: i % 2 ? "single" : "parallel" }),
  );
  const records: ScoredRecord[] = options.configs.flatMap((config) =>
    items.map((it, i) => {
      const args = config.succeed.includes(i) ? CREATE_ISSUE.args : { ...CREATE_ISSUE.args, title: "Other" };
      const run = trace({
        route: { route: "REWOO", rule: "default" },
        plan: {
          raw: ` issue_write(method="create", owner="acme", repo="webapp", title="${args.title}")`,
          steps: [{ id: "#E1", tool: "issue_write", args }],
        },
        steps: [{ id: "#E1", tool: "issue_write", round: 0, status: "ok", callSeq: 1 }],
        toolCalls: [call(1, "issue_write", args)],
        modelCalls: [{ stage: "planner", durationMs: 5 + i, usage: { promptTokens: 100, completionTokens: 20 } }],
        timings: { totalMs: 20 + i, modelMs: 5 + i, toolsMs: 2 },
      });
      return {
        model,
        config: config.name,
        item: it,
        repeat: 0,
        score: scoreItem({ item: it, trace: run, stateChecks: [], tools: TOOLS }),
      };
    }),
  );
  const summary: RunSummary = {
    format: SUMMARY_FORMAT,
    runId: options.id,
    simulated: options.simulated ?? true,
    records: records.length,
    ...summarize(records, { resamples: 100 }),
    comparisons: compareConfigurations(records),
  };
  const manifest = {
    format: RUN_FORMAT,
    runId: options.id,
    request: { models: [model], configs: [], dataset: [], filter: {}, seed: 1, repeats: 1, transport: "memory" },
    models: [
      {
        name: model,
        provider: "sim",
        id: model,
        provenance: options.simulated === false ? { kind: "live" as const } : { kind: "simulated" as const },
      },
    ],
    configs: options.configs.map((config) => config.name),
    resolved: {
      [model]: Object.fromEntries(
        options.configs.map((config) => [
          config.name,
          { ...resolveAgentConfig(config.agent), exposure: "session" as const },
        ]),
      ),
    },
    dataset: {
      files: ["/x/datasets/github.jsonl"],
      hash: "hash-1",
      items: items.length,
      itemIds: items.map((i) => i.id),
    },
    tasks: records.length,
    versions: { git: "abc1234" },
    simulated: options.simulated ?? true,
    startedAt: "2026-01-01T00:00:00.000Z",
    sessions: [],
  } satisfies RunManifest;
  return { run: { id: options.id, ref: options.id, dir: `/nonexistent/${options.id}`, manifest, summary }, records };
}

/** Writes the run's folder (run.json, summary.json, records.jsonl.gz with the fields outcomes read). */
export function writeSyntheticRun(root: string, synthetic: SyntheticRun): string {
  const dir = join(root, synthetic.run.id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, RUN_FILES.run), JSON.stringify(synthetic.run.manifest));
  writeFileSync(join(dir, RUN_FILES.summary), JSON.stringify(synthetic.run.summary));
  const lines = synthetic.records.map((record) =>
    JSON.stringify({
      key: `${record.model}|${record.config}|${record.item.id}|0`,
      model: record.model,
      config: record.config,
      itemId: record.item.id,
      repeat: 0,
      score: record.score,
    }),
  );
  writeRunLines(dir, "records", lines);
  return dir;
}
