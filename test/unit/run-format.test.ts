/**
 * A run written before the run files carried a format version (format 1) reads as the current format:
 * run.json, summary.json and every record, through the readers the commands use, and it resumes into
 * the current format. The older files are made from a real run by undoing format 2's changes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runBench } from "../../src/bench/run/bench.ts";
import type { RunSummary } from "../../src/bench/run/compare-configs.ts";
import type { RunManifest, RunRecord, StoredRecord } from "../../src/bench/run/run-file-types.ts";
import {
  forEachRunRecord,
  RECORD_FORMAT,
  RUN_FORMAT,
  SUMMARY_FORMAT,
  upgradeManifest,
  upgradeRecord,
} from "../../src/bench/run/run-format.ts";
import { RUN_FILES, runFile } from "../../src/bench/run/store.ts";
import { readRunLines, writeRunLines } from "../../src/bench/run/testing/run-lines.ts";
import { DEFAULT_REGISTRY } from "../../src/mcp/registry.ts";
import { loadRun } from "../../src/report/runs.ts";
import { benchRequest } from "../support/bench-run.ts";

const root = mkdtempSync(join(tmpdir(), "run-format-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const readJsonFile = <T>(file: string) => JSON.parse(readFileSync(file, "utf8")) as T;
const writeJsonFile = (file: string, value: unknown) => writeFileSync(file, JSON.stringify(value, null, 2));

/** Rewrites a current run's files as format 1 wrote them. */
function downgrade(dir: string): void {
  const { format: _run, ...manifest } = readJsonFile<RunManifest>(join(dir, RUN_FILES.run));
  const { registries, ...request } = manifest.request;
  writeJsonFile(join(dir, RUN_FILES.run), {
    ...manifest,
    request: { ...request, registry: registries![0] },
    // before `provenance` was stored, a simulated model said so in `simulated`
    models: manifest.models.map(({ provenance, ...model }) => ({
      ...model,
      simulated: provenance.kind === "simulated",
    })),
    // nor did a configuration name its tool selection (the ranking's, as `onsetlab`'s is)
    resolved: mapValues(manifest.resolved, (configs) =>
      mapValues(configs, ({ toolSelection: _selection, ...config }) => config),
    ),
    sessions: manifest.sessions.map(({ threads: _threads, ...session }) => session),
  });
  const { format: _summary, ...summary } = readJsonFile<RunSummary>(join(dir, RUN_FILES.summary));
  writeJsonFile(join(dir, RUN_FILES.summary), {
    ...summary,
    rows: summary.rows.map(({ invalid: _invalid, latency: { loadMsPerItem: _load, ...latency }, ...row }) => ({
      ...row,
      latency,
    })),
    // nor a failure kind added since (conversations' asked_needlessly)
    failures: summary.failures.map(({ primary, any, recovered, ...row }) => ({
      ...row,
      ...mapValues({ primary, any, recovered }, ({ asked_needlessly: _later, ...counts }) => counts),
    })),
  });
  writeRunLines(
    dir,
    "records",
    readRunLines(dir, "records").map((line) => {
      const { format: _record, ...record } = JSON.parse(line) as RunRecord;
      // format 1 kept the bench's exposure in the agent's configuration too, and no tool selection
      const { toolSelection: _selection, ...config } = record.result.config;
      return JSON.stringify({
        ...record,
        result: { ...record.result, config: { ...config, exposure: record.session.exposure } },
      });
    }),
  );
}

function mapValues<A, B>(object: Record<string, A>, map: (value: A) => B): Record<string, B> {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, map(value)]));
}

function records(dir: string): StoredRecord[] {
  const read: StoredRecord[] = [];
  forEachRunRecord(runFile(dir, "records"), (record) => read.push(record));
  return read;
}

describe("run files of format 1 (no version)", () => {
  it("read as the current format, and resume into it", async () => {
    const outcome = await runBench({
      request: benchRequest({
        models: ["sim:oracle"],
        configs: ["onsetlab"],
        matrix: undefined,
        limit: 2,
        registries: [DEFAULT_REGISTRY],
      }),
      resultsRoot: root,
    });
    const current = loadRun(outcome.runId, root);
    const currentRecords = records(outcome.dir);
    expect(current.manifest.format).toBe(RUN_FORMAT);
    expect(current.summary.format).toBe(SUMMARY_FORMAT);
    expect(currentRecords.map((record) => record.format)).toEqual(currentRecords.map(() => RECORD_FORMAT));

    downgrade(outcome.dir);
    expect(readJsonFile<Record<string, unknown>>(join(outcome.dir, RUN_FILES.run)).format).toBeUndefined();
    const older = loadRun(outcome.runId, root);
    expect(older.manifest).toEqual(current.manifest);
    // format 1 did not keep load time apart: unknown, not 0
    expect(older.summary).toEqual({
      ...current.summary,
      rows: current.summary.rows.map((row) => ({ ...row, latency: { ...row.latency, loadMsPerItem: null } })),
    });
    expect(records(outcome.dir)).toEqual(currentRecords);

    const resumed = await runBench({ request: current.manifest.request, resume: outcome.runId, resultsRoot: root });
    expect(readJsonFile<RunManifest>(join(resumed.dir, RUN_FILES.run)).format).toBe(RUN_FORMAT);
    expect(readJsonFile<RunSummary>(join(resumed.dir, RUN_FILES.summary))).toEqual(current.summary);
  });

  it("reads a model's provenance from the fields it had before the value was stored", () => {
    const earlier = [
      { simulated: true },
      { simulated: false, standin: "sim:slm-3b" },
      { simulated: true, replayedFrom: "c.jsonl" },
      { simulated: false },
      // format 1 written after the value was stored: kept as it is
      { provenance: { kind: "replayed", from: "d.jsonl", simulated: false } },
    ].map((fields, index) => ({ name: `m${index}`, provider: "ollama", id: `m${index}`, ...fields }));
    const manifest = { request: {}, sessions: [], resolved: {}, models: earlier } as unknown as RunManifest;
    expect(upgradeManifest(manifest, "run.json").models).toEqual([
      { name: "m0", provider: "ollama", id: "m0", provenance: { kind: "simulated" } },
      { name: "m1", provider: "ollama", id: "m1", provenance: { kind: "stand-in", profile: "sim:slm-3b" } },
      { name: "m2", provider: "ollama", id: "m2", provenance: { kind: "replayed", from: "c.jsonl", simulated: true } },
      { name: "m3", provider: "ollama", id: "m3", provenance: { kind: "live" } },
      { name: "m4", provider: "ollama", id: "m4", provenance: { kind: "replayed", from: "d.jsonl", simulated: false } },
    ]);
  });

  it("upgrades the traces of a conversation's turns as a record's own", () => {
    const config = { strategy: "auto", exposure: "session" };
    const earlier = { key: "k", category: "conversation", conversation: { turns: [{ runs: [{ config }] }] } };
    const record = upgradeRecord(earlier as unknown as StoredRecord, "records.jsonl.gz");
    expect(record.format).toBe(RECORD_FORMAT);
    expect(record.conversation?.turns[0]?.runs[0]?.config).toEqual({ strategy: "auto", toolSelection: "ranked" });
  });

  it("refuses a format newer than the harness reads, naming the file", () => {
    const manifest = { format: "onsetlab-run/3" } as unknown as RunManifest;
    expect(() => upgradeManifest(manifest, "/runs/x/run.json")).toThrow(
      "/runs/x/run.json: format onsetlab-run/3, but this harness reads onsetlab-run/2 and older",
    );
  });
});
