/**
 * Helpers of the bench's run-level tests: a request, a run's records as comparable content (sorted by
 * key, timing fields removed — the list is in src/bench/run/record-content.ts), and the real CLI as a
 * child process writing into a results folder of the test's own (ONSETLAB_RESULTS_DIR).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withoutTiming } from "../../src/bench/run/record-content.ts";
import type { BenchRequest, RunRecord } from "../../src/bench/run/run-file-types.ts";
import { RUN_FILES, readJsonl } from "../../src/bench/run/store.ts";
import { readRunLines } from "../../src/bench/run/testing/run-lines.ts";

export const REPO_ROOT = new URL("../..", import.meta.url).pathname;
export const CLI = ["--import", "tsx", "src/cli/bin.ts"];

export function benchRequest(changes: Partial<BenchRequest> = {}): BenchRequest {
  return {
    models: ["sim:slm-3b"],
    configs: [],
    matrix: "default",
    dataset: [],
    filter: {},
    seed: 1,
    repeats: 1,
    transport: "memory",
    ...changes,
  };
}

export interface RecordContent {
  key: string;
  content: unknown;
}

/** A run's records sorted by key, each without its timing fields. */
export function recordContents(runDir: string): RecordContent[] {
  const { rows, tornBytes } = readJsonl<RunRecord>(join(runDir, RUN_FILES.records));
  if (tornBytes > 0) throw new Error(`${runDir}: ${RUN_FILES.records} ends in a torn member (${tornBytes} bytes)`);
  return rows
    .map((record) => ({ key: record.key, content: withoutTiming(record) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Every record, parsed strictly from what `zcat records.jsonl.gz` prints: a torn or damaged member or line throws. */
export function strictRecordLines(runDir: string): RunRecord[] {
  return readRunLines(runDir, "records").map((line) => JSON.parse(line) as RunRecord);
}

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** The real CLI in a child process; `resultsDir` keeps its runs apart from the repository's. */
export function runCli(args: readonly string[], env: Record<string, string> = {}): Promise<CliOutcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...CLI, ...args],
      { cwd: REPO_ROOT, env: { ...process.env, CI: "true", ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/**
 * The repository's models.yaml as text to copy elsewhere: an agent definition's path is read beside the
 * models file, so the copy names the repository's definitions by their absolute paths.
 */
export function shippedModelsYaml(): string {
  return readFileSync(join(REPO_ROOT, "models.yaml"), "utf8").replace(
    /\bagent: ([^\s,{}]+\.md)\b/g,
    (_, path: string) => `agent: ${join(REPO_ROOT, path)}`,
  );
}

/** A models.yaml of the test's own: the repository's, with `entries` (indented YAML lines) added to its models. */
export function modelsFileWith(entries: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "onsetlab-models-")), "models.yaml");
  writeFileSync(file, shippedModelsYaml().replace(/^models:\n/m, `models:\n${entries}`));
  return file;
}
