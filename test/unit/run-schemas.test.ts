/**
 * docs/schemas/ against real run files: a small in-process run (two configurations, native and jsonl
 * among them) and the committed calibration runs, each file and every record line validated with ajv.
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { describe, expect, it } from "vitest";
import { runBench } from "../../src/bench/run/bench.ts";
import { RUN_FILES } from "../../src/bench/run/store.ts";
import { benchRequest, REPO_ROOT, strictRecordLines } from "../support/bench-run.ts";

const SCHEMAS = join(REPO_ROOT, "docs/schemas");
const CALIBRATION = join(REPO_ROOT, "results/calibration");

function validator(name: string): ValidateFunction {
  const schema = JSON.parse(readFileSync(join(SCHEMAS, name), "utf8")) as object;
  return new Ajv({ allErrors: true }).compile(schema);
}

const schemas = {
  run: validator("run.schema.json"),
  record: validator("record.schema.json"),
  summary: validator("summary.schema.json"),
};

function problems(validate: ValidateFunction, value: unknown): string {
  return validate(value) ? "" : new Ajv().errorsText(validate.errors);
}

function readJsonFile(file: string): unknown {
  return JSON.parse(readFileSync(file, "utf8"));
}

describe("run file schemas", () => {
  it("describe a fresh run's run.json, every record and summary.json", async () => {
    const root = mkdtempSync(join(tmpdir(), "onsetlab-schemas-"));
    const { dir } = await runBench({
      // with an agent definition and a file injected: their fields are described too
      request: benchRequest({
        configs: ["onsetlab", "native", "jsonl"],
        first: 6,
        agents: [join(REPO_ROOT, "examples/agents/support.md")],
        files: [join(REPO_ROOT, "examples/agents/files/triage-policy.md")],
      }),
      resultsRoot: root,
      threads: 1,
    });
    expect(problems(schemas.run, readJsonFile(join(dir, RUN_FILES.run)))).toBe("");
    const records = strictRecordLines(dir);
    expect(records).toHaveLength(24);
    expect(records.some((record) => record.result.definition !== undefined)).toBe(true);
    for (const record of records) expect(problems(schemas.record, record), record.key).toBe("");
    expect(problems(schemas.summary, readJsonFile(join(dir, RUN_FILES.summary)))).toBe("");
  }, 60_000);

  it("describe a conversation run's run.json, every conversation record and summary.json", async () => {
    const root = mkdtempSync(join(tmpdir(), "onsetlab-schemas-"));
    const { dir } = await runBench({
      request: benchRequest({
        configs: ["onsetlab-plus", "native"],
        matrix: undefined,
        dataset: [join(REPO_ROOT, "datasets/conversations/conversations.jsonl")],
        first: 3,
      }),
      resultsRoot: root,
      threads: 1,
    });
    expect(problems(schemas.run, readJsonFile(join(dir, RUN_FILES.run)))).toBe("");
    const records = strictRecordLines(dir);
    expect(records).toHaveLength(6);
    for (const record of records) {
      expect(record.conversation?.turns.length, record.key).toBeGreaterThan(1);
      expect(problems(schemas.record, record), record.key).toBe("");
    }
    const summary = readJsonFile(join(dir, RUN_FILES.summary));
    expect(summary).toHaveProperty("conversations.rows");
    expect(problems(schemas.summary, summary)).toBe("");
  }, 60_000);

  it("reject a record with a field no type declares", async () => {
    const root = mkdtempSync(join(tmpdir(), "onsetlab-schemas-"));
    const { dir } = await runBench({ request: benchRequest({ configs: ["native"], first: 1 }), resultsRoot: root });
    const [record] = strictRecordLines(dir);
    expect(problems(schemas.record, { ...record, unknownField: 1 })).toMatch(/additional properties/);
  });

  const calibration = readdirSync(CALIBRATION);
  it.each(calibration)("describe the committed calibration run %s", (runId) => {
    const dir = join(CALIBRATION, runId);
    expect(problems(schemas.run, readJsonFile(join(dir, RUN_FILES.run)))).toBe("");
    expect(problems(schemas.summary, readJsonFile(join(dir, RUN_FILES.summary)))).toBe("");
  });
});
