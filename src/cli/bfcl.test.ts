import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SAMPLE_MODEL, writeSample } from "../bfcl/testing/sample.ts";
import { registerBfclCommands } from "./bfcl.ts";

const doc = {
  name: "calc.area",
  description: "Area.",
  parameters: { type: "dict", properties: { base: { type: "integer" } }, required: ["base"] },
};
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n");

let root: string;
let exitCode: typeof process.exitCode;

function setup(scoreLines: unknown[] | null): { resultDir: string; dataDir: string } {
  const dataDir = join(root, "data");
  const resultDir = join(root, "result", "m1");
  mkdirSync(join(dataDir, "possible_answer"), { recursive: true });
  mkdirSync(resultDir, { recursive: true });
  const ids = ["simple_0", "simple_1", "simple_2"];
  writeFileSync(
    join(dataDir, "BFCL_v3_simple.json"),
    jsonl(ids.map((id) => ({ id, question: [[{ role: "user", content: "q" }]], function: [doc] }))),
  );
  writeFileSync(
    join(dataDir, "possible_answer", "BFCL_v3_simple.json"),
    jsonl(ids.map((id) => ({ id, ground_truth: [{ "calc.area": { base: [10] } }] }))),
  );
  const outputs = ["[calc.area(base=10)]", "calc.area(base=11)", "oops("];
  writeFileSync(join(resultDir, "BFCL_v3_simple_result.json"), jsonl(ids.map((id, i) => ({ id, result: outputs[i] }))));
  if (scoreLines) {
    mkdirSync(join(root, "score", "m1"), { recursive: true });
    writeFileSync(join(root, "score", "m1", "BFCL_v3_simple_score.json"), jsonl(scoreLines));
  }
  return { resultDir, dataDir };
}

async function run(...args: string[]): Promise<{ out: string; err: string; code: typeof process.exitCode }> {
  return runCommand("score", ...args);
}

async function runCommand(
  command: string,
  ...args: string[]
): Promise<{ out: string; err: string; code: typeof process.exitCode }> {
  let out = "";
  let err = "";
  const program = new Command().exitOverride();
  registerBfclCommands(program, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  process.exitCode = undefined;
  await program.parseAsync(["node", "onsetlab", "bfcl", command, ...args]);
  const code = process.exitCode;
  process.exitCode = undefined;
  return { out, err, code };
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "bfcl-cli-"));
  exitCode = process.exitCode;
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  process.exitCode = exitCode;
});

describe("bfcl score", () => {
  // BFCL fails simple_1 (value) and simple_2 (decoder) — the score file agrees with our rules.
  const agreeing = [
    { accuracy: 1 / 3, correct_count: 1, total_count: 3 },
    { id: 2, error_type: "value_error:others", error: ["bad base"], prompt: { id: "simple_1" } },
    { id: 3, error_type: "ast_decoder:decoder_failed", error: ["syntax"] },
  ];

  it("--json prints per-category totals and agreement (numeric ids are 1-based)", async () => {
    const { resultDir, dataDir } = setup(agreeing);
    const { out, code } = await run(resultDir, "--data", dataDir, "--json");
    expect(code).toBeUndefined();
    const report = JSON.parse(out);
    expect(report.categories.simple).toMatchObject({ total: 3, correct: 1, agree: 3, disagree: 0, disagreements: [] });
    expect(report.categories.simple.accuracy).toBeCloseTo(1 / 3);
  });

  it("the table lists every disagreement with both verdicts", async () => {
    const { resultDir, dataDir } = setup([
      { accuracy: 2 / 3, correct_count: 2, total_count: 3 },
      { id: 3, error_type: "ast_decoder:decoder_failed", error: ["syntax"], prompt: { id: "simple_2" } },
    ]);
    const { out } = await run(resultDir, "--data", dataDir);
    expect(out).toMatch(/simple\s+3\s+1\s+33\.33%\s+66\.67%\s+2\s+1/);
    expect(out).toContain("✗ simple simple_1: calc.area(base=11)");
    expect(out).toContain(
      "ours: fail value_error:others: Invalid value for parameter 'base': 11. Expected one of [10].",
    );
    expect(out).toContain("BFCL: pass");
  });

  it("without score files, scores and says agreement was not computed", async () => {
    const { resultDir, dataDir } = setup(null);
    const { out } = await run(resultDir, "--data", dataDir, "--json");
    expect(JSON.parse(out).categories.simple).toMatchObject({ total: 3, correct: 1, agree: null, disagree: null });
    expect((await run(resultDir, "--data", dataDir)).out).toContain("agreement not computed");
  });

  it("--scores points at another score folder", async () => {
    const { resultDir, dataDir } = setup(agreeing);
    const { code, err } = await run(resultDir, "--data", dataDir, "--scores", join(root, "nope"));
    expect(code).toBe(2);
    expect(err).toContain("score folder not found");
  });

  it("a missing result folder exits 2", async () => {
    const { dataDir } = setup(null);
    const { code, err } = await run(join(root, "missing"), "--data", dataDir);
    expect(code).toBe(2);
    expect(err).toMatch(/^error: result folder not found: \S+missing\n$/);
  });

  it("a malformed JSON line exits 2 naming file:line", async () => {
    const { resultDir, dataDir } = setup(null);
    const file = join(resultDir, "BFCL_v3_simple_result.json");
    writeFileSync(file, `${JSON.stringify({ id: "simple_0", result: "f()" })}\n{"id": "simple_1", "result": `);
    const { code, err } = await run(resultDir, "--data", dataDir);
    expect(code).toBe(2);
    expect(err).toContain(`${file}:2: malformed JSON`);
  });

  it("a result id with no question exits 2 naming file:line", async () => {
    const { resultDir, dataDir } = setup(null);
    const file = join(resultDir, "BFCL_v3_simple_result.json");
    writeFileSync(file, JSON.stringify({ id: "simple_99", result: "f()" }));
    const { code, err } = await run(resultDir, "--data", dataDir);
    expect(code).toBe(2);
    expect(err).toContain(`${file}:1: simple_99: no question with this id`);
  });
});

describe("bfcl score over several models", () => {
  it("a folder of model folders scores each model; --json keys them by model", async () => {
    const sample = writeSample();
    try {
      const other = join(sample.resultRoot, "other-model");
      mkdirSync(other);
      writeFileSync(
        join(other, "BFCL_v3_simple_result.json"),
        JSON.stringify({ id: "simple_0", result: "[calc.area(base=10, height=5)]" }),
      );
      const { out, code } = await runCommand("score", sample.resultRoot, "--data", sample.dataDir, "--json");
      expect(code).toBeUndefined();
      const report = JSON.parse(out);
      expect(Object.keys(report.models)).toEqual(["other-model", SAMPLE_MODEL]);
      expect(report.models[SAMPLE_MODEL].categories.simple).toMatchObject({
        total: 6,
        correct: 3,
        agree: 6,
        disagree: 0,
      });
      expect(report.models["other-model"].categories.simple).toMatchObject({ total: 1, correct: 1, agree: null });
      // The same models named one by one give the same report.
      const listed = await runCommand("score", other, sample.resultDir, "--data", sample.dataDir, "--json");
      expect(JSON.parse(listed.out)).toEqual(report);
    } finally {
      rmSync(sample.root, { recursive: true, force: true });
    }
  });

  it("a folder with no result files at any level exits 2", async () => {
    const { code, err } = await runCommand("score", root, "--data", root);
    expect(code).toBe(2);
    expect(err).toMatch(/^error: .*\n$/);
    const missing = await runCommand("score", root, "--data", join(root, "no-data"));
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(
      /^error: --data \S+no-data: no such folder; give BFCL's data folder \(BFCL_v3_<category>\.json/,
    );
  });
});

describe("bfcl import", () => {
  it("writes one items file and one tools file per category", async () => {
    const sample = writeSample();
    try {
      const out = join(sample.root, "out");
      const result = await runCommand(
        "import",
        "--data",
        sample.dataDir,
        "--categories",
        "simple,parallel",
        "--out",
        out,
      );
      expect(result.code).toBeUndefined();
      expect(result.out).toContain("simple: 6 items (easy 6, medium 0, hard 0)");
      expect(result.out).toContain("parallel: 1 items (easy 0, medium 1, hard 0)");
      const items = readFileSync(join(out, "bfcl_simple.jsonl"), "utf8").trim().split("\n");
      expect(items).toHaveLength(6);
      expect(JSON.parse(readFileSync(join(out, "bfcl_parallel.tools.json"), "utf8")).parallel_0[0].name).toBe(
        "get_weather",
      );
    } finally {
      rmSync(sample.root, { recursive: true, force: true });
    }
  });

  it("an unknown category exits 2 naming it", async () => {
    const sample = writeSample();
    try {
      const { code, err } = await runCommand("import", "--data", sample.dataDir, "--categories", "simple,java");
      expect(code).toBe(2);
      expect(err).toContain('unknown BFCL category "java" in --categories');
    } finally {
      rmSync(sample.root, { recursive: true, force: true });
    }
  });
});

describe("bfcl uplift", () => {
  it("--json prints per model and category the strict and after-pipeline accuracy; --report writes the files", async () => {
    const sample = writeSample();
    try {
      const reportDir = join(sample.root, "reports");
      mkdirSync(reportDir);
      const { out, code } = await runCommand(
        "uplift",
        sample.resultRoot,
        "--data",
        sample.dataDir,
        "--json",
        "--report",
        reportDir,
      );
      expect(code).toBeUndefined();
      const summary = JSON.parse(out);
      expect(summary.models[0].model).toBe(SAMPLE_MODEL);
      expect(summary.models[0].total).toMatchObject({
        entries: 7,
        strictCorrect: 4,
        finalCorrect: 6,
        fixed: 3,
        broken: 1,
      });
      const markdown = readFileSync(join(reportDir, "bfcl-replay.md"), "utf8");
      expect(markdown).toContain("| tiny-model | simple | 6 | 50.00% | 50.00% (3) | 83.33% (5) | 3 | 1 |");
      const entries = readFileSync(join(reportDir, "bfcl-replay-entries.csv"), "utf8");
      expect(entries.trim().split("\n")).toHaveLength(1 + 4); // header + every entry whose verdict changed
    } finally {
      rmSync(sample.root, { recursive: true, force: true });
    }
  });

  it("--concurrency must be a whole number", async () => {
    const { code, err } = await runCommand("uplift", root, "--concurrency", "0");
    expect(code).toBe(2);
    expect(err).toContain("--concurrency must be a whole number");
  });
});
