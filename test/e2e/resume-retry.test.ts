/**
 * `--resume` runs again the items the model server failed. A fault proxy in front of the stand-in (real
 * mode, oracle answers) fails every request of two items with a 500, so those items go invalid with
 * `server_error` in the rewoo row, while the native row overflows its 4096-token window (`context_overflow`,
 * deterministic). A resume against the healthy server measures the two items, leaves every other record as it
 * was, byte for byte, and keeps one record per key; `--keep-invalid`, or a resume with nothing to retry,
 * rewrites nothing.
 */
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = tempResultsDir("onsetlab-resume-retry-");

import { selectItems } from "../../src/bench/dataset/select.ts";
import { runBench } from "../../src/bench/run/bench.ts";
import type { RunSummary } from "../../src/bench/run/compare-configs.ts";
import type { RunManifest, RunRecord } from "../../src/bench/run/run-file-types.ts";
import { RUN_FILES, readJson } from "../../src/bench/run/store.ts";
import { readRunLines } from "../../src/bench/run/testing/run-lines.ts";
import type { SpanLine } from "../../src/trace/jsonl-exporter.ts";
import { benchRequest, REPO_ROOT } from "../support/bench-run.ts";
import { runInProcess } from "../support/cli-in-process.ts";
import { oracleBehindProxy } from "../support/fault-proxy.ts";
import { tempResultsDir } from "../support/results-dir.ts";

const modelsFile = join(root, "models.yaml");
const request = benchRequest({
  models: ["qwen2.5:3b"],
  configs: ["rewoo", "native"],
  matrix: undefined,
  filter: { category: ["single"] },
  first: 4,
  // the native row's 100+ tool schemas do not fit: every native item overflows, whatever the server does
  numCtx: 4096,
});
const items = selectItems([], request.filter, request).items;
/** The items whose every generation request the proxy fails (500, after the retries too). */
const doomed = [items[0]!, items[2]!];
const failedKeys = doomed.map((item) => `qwen2.5:3b|rewoo|${item.id}|0`);

let servers: Awaited<ReturnType<typeof oracleBehindProxy>>;
const savedHost = process.env.OLLAMA_HOST;

beforeAll(async () => {
  // the query as it appears in a request body (JSON-escaped)
  const queries = doomed.map((item) => JSON.stringify(item.query).slice(1, -1));
  servers = await oracleBehindProxy((path, body) =>
    path === "/api/generate" && queries.some((query) => body.includes(query))
      ? { status: 500, body: '{"error":"llama runner process has terminated"}' }
      : undefined,
  );
  writeFileSync(
    modelsFile,
    [
      "models:",
      "  qwen2.5:3b: { provider: ollama, retry_ms: [5, 10] }",
      "configurations:",
      "  rewoo: { strategy: rewoo, rescue: false, fallback: false }",
      "  native: { strategy: native }",
      "",
    ].join("\n"),
  );
});

afterAll(async () => {
  await servers.close();
  if (savedHost === undefined) delete process.env.OLLAMA_HOST;
  else process.env.OLLAMA_HOST = savedHost;
  rmSync(root, { recursive: true, force: true });
});

/** A new run through the failing proxy: its id and folder. */
async function failingRun(): Promise<{ runId: string; dir: string; summary: RunSummary }> {
  process.env.OLLAMA_HOST = servers.proxy.url;
  const { runId, dir, summary } = await runBench({ request, modelsFile, resultsRoot: root });
  return { runId, dir, summary };
}

/** Each record line by its key, as written. */
function linesByKey(dir: string): Map<string, string> {
  return new Map(readRunLines(dir, "records").map((line) => [(JSON.parse(line) as RunRecord).key, line]));
}

const invalidOf = (summary: RunSummary, config: string) => summary.rows.find((row) => row.config === config)!.invalid;

describe("bench --resume runs again the items the server failed", () => {
  it("measures the server_error items, keeps every other record byte for byte, one record per key", async () => {
    const { runId, dir, summary } = await failingRun();
    expect(invalidOf(summary, "rewoo")).toEqual({ context_overflow: 0, output_truncated: 0, server_error: 2 });
    expect(invalidOf(summary, "native").context_overflow).toBe(4);
    const before = linesByKey(dir);
    expect(before.size).toBe(8);
    const invalidBefore = [...before.entries()]
      .filter(([, line]) => (JSON.parse(line) as RunRecord).score.invalid === "server_error")
      .map(([key]) => key);
    expect(invalidBefore.sort()).toEqual([...failedKeys].sort());

    process.env.OLLAMA_HOST = servers.standin.url;
    const resumed = await runInProcess(["bench", "--resume", runId, "--models", modelsFile, "--json"]);
    // the native row is still over the invalid limit (its overflows stay): exit 1, its files written
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toContain(
      `resuming run ${runId}: 6 of 8 tasks kept, 2 to run, re-running 2 items the model server failed`,
    );
    expect(resumed.stderr).toMatch(/run \S+: 8 records \(6 from before the resume, 2 run again after a server error\)/);
    expect(resumed.stderr).toMatch(/more than 5% of the items are invalid in qwen2\.5:3b × native: 4 of 4/);
    const json = JSON.parse(resumed.stdout) as { resumed: unknown; rows: { config: string; invalid: unknown }[] };
    expect(json.resumed).toEqual({ skipped: 6, retried: 2 });

    const after = readRunLines(dir, "records");
    const keys = after.map((line) => (JSON.parse(line) as RunRecord).key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.sort()).toEqual([...before.keys()].sort());
    const afterByKey = linesByKey(dir);
    for (const [key, line] of before) {
      if (failedKeys.includes(key))
        expect((JSON.parse(afterByKey.get(key)!) as RunRecord).score.invalid).toBeUndefined();
      // the overflowed native items were not run again: their lines (timings included) are as they were
      else expect(afterByKey.get(key)).toBe(line);
    }

    const summaryAfter = readJson<RunSummary>(join(dir, RUN_FILES.summary), "summary.json");
    expect(invalidOf(summaryAfter, "rewoo")).toEqual({ context_overflow: 0, output_truncated: 0, server_error: 0 });
    expect(invalidOf(summaryAfter, "native")).toEqual(invalidOf(summary, "native"));
    expect(json.rows.find((row) => row.config === "rewoo")!.invalid).toEqual(invalidOf(summaryAfter, "rewoo"));

    // one query span per key in the traces: the failed attempts' spans went with their records
    const querySpans = readRunLines(dir, "traces")
      .map((line) => JSON.parse(line) as SpanLine)
      .filter((span) => span.name === "query")
      .map((span) => span.attributes["onsetlab.key"]);
    expect(querySpans.sort()).toEqual(keys.sort());

    const manifest = readJson<RunManifest>(join(dir, RUN_FILES.run), "run.json");
    expect(manifest.sessions.at(-1)).toMatchObject({ tasksRun: 2, retried: 2 });
    expect(manifest.finishedAt).toBeDefined();
    const runSchema = JSON.parse(readFileSync(join(REPO_ROOT, "docs/schemas/run.schema.json"), "utf8")) as object;
    const validate = new Ajv({ allErrors: true }).compile(runSchema);
    expect(validate(manifest) ? "" : new Ajv().errorsText(validate.errors)).toBe("");

    // nothing left to retry: the records file is the same file, byte for byte; the traces only grow
    const records = join(dir, RUN_FILES.records);
    const traces = join(dir, RUN_FILES.traces);
    const kept = { bytes: readFileSync(records), inode: statSync(records).ino };
    const tracesBefore = readFileSync(traces);
    const again = await runBench({ request, resume: runId, modelsFile, resultsRoot: root });
    expect(again.retried).toBe(0);
    expect({ bytes: readFileSync(records), inode: statSync(records).ino }).toEqual(kept);
    expect(readFileSync(traces).subarray(0, tracesBefore.length)).toEqual(tracesBefore);
  });

  it("--keep-invalid keeps the server_error records and rewrites nothing", async () => {
    const { runId, dir } = await failingRun();
    const records = join(dir, RUN_FILES.records);
    const kept = { bytes: readFileSync(records), inode: statSync(records).ino };
    process.env.OLLAMA_HOST = servers.standin.url;
    const resumed = await runInProcess(["bench", "--resume", runId, "--models", modelsFile, "--keep-invalid"]);
    expect(resumed.stderr).toContain(`resuming run ${runId}: 8 of 8 tasks kept, 0 to run\n`);
    expect({ bytes: readFileSync(records), inode: statSync(records).ino }).toEqual(kept);
    expect(readJson<RunSummary>(join(dir, RUN_FILES.summary), "summary.json").rows[0]!.invalid.server_error).toBe(2);
  });

  it("--keep-invalid without --resume is bad usage", async () => {
    const outcome = await runInProcess(["bench", "--model", "sim:oracle", "--keep-invalid"]);
    expect(outcome).toMatchObject({ code: 2, stderr: "error: --keep-invalid goes with --resume RUN_ID\n" });
  });
});
