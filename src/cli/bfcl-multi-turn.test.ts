import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { registerBfclCommands } from "./bfcl.ts";

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n");

let root: string;
let exitCode: typeof process.exitCode;

const fileSystem = {
  GorillaFileSystem: { root: { home: { type: "directory", contents: { "a.txt": { type: "file", content: "x" } } } } },
};

/** A two-entry multi_turn_base: v4 data, one model's result file, and (optionally) BFCL's score file. */
function setup(results: unknown[], options: { score?: unknown[]; environment?: string } = {}) {
  const dataDir = join(root, "v4data");
  const resultDir = join(root, "result", "m1");
  mkdirSync(join(dataDir, "possible_answer"), { recursive: true });
  mkdirSync(resultDir, { recursive: true });
  const ids = ["multi_turn_base_0", "multi_turn_base_1"];
  writeFileSync(
    join(dataDir, "BFCL_v4_multi_turn_base.json"),
    jsonl(
      ids.map((id) => ({
        id,
        question: [[{ role: "user", content: "make a folder" }], [{ role: "user", content: "show a.txt" }]],
        initial_config: fileSystem,
        involved_classes: [options.environment ?? "GorillaFileSystem"],
      })),
    ),
  );
  writeFileSync(
    join(dataDir, "possible_answer", "BFCL_v4_multi_turn_base.json"),
    jsonl(ids.map((id) => ({ id, ground_truth: [["mkdir(dir_name='new')"], ["cat(file_name='a.txt')"]] }))),
  );
  writeFileSync(
    join(resultDir, "BFCL_v4_multi_turn_base_result.json"),
    jsonl(results.map((result, i) => ({ id: ids[i], result }))),
  );
  if (options.score) {
    mkdirSync(join(root, "score", "m1"), { recursive: true });
    writeFileSync(join(root, "score", "m1", "BFCL_v4_multi_turn_base_score.json"), jsonl(options.score));
  }
  return { resultDir, dataDir };
}

async function score(...args: string[]): Promise<{ out: string; err: string; code: typeof process.exitCode }> {
  let out = "";
  let err = "";
  const program = new Command().exitOverride();
  registerBfclCommands(program, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  process.exitCode = undefined;
  await program.parseAsync(["node", "onsetlab", "bfcl", "score", ...args]);
  const code = process.exitCode;
  process.exitCode = undefined;
  return { out, err, code };
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "bfcl-mt-cli-"));
  exitCode = process.exitCode;
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  process.exitCode = exitCode;
});

describe("bfcl score on BFCL v4 multi-turn result files", () => {
  it("gives BFCL's verdicts on prompt-mode results and prints agreement with the score file beside them", async () => {
    const { resultDir, dataDir } = setup(
      [
        [["[mkdir(dir_name='new')]", "Done."], ["cat(file_name='a.txt')"]],
        [["mkdir(dir_name='other')"], ["cat(file_name='a.txt')"]],
      ],
      {
        score: [
          { accuracy: 0.5, correct_count: 1, total_count: 2 },
          {
            id: "multi_turn_base_1",
            valid: false,
            error: {
              error_message: "Model instance for GorillaFileSystem …",
              error_type: "multi_turn:instance_state_mismatch",
            },
          },
        ],
      },
    );
    const { out, code } = await score(resultDir, "--data-v4", dataDir, "--json");
    expect(code).toBeUndefined();
    const category = JSON.parse(out).categories.multi_turn_base;
    expect(category).toMatchObject({
      total: 2,
      correct: 1,
      agree: 2,
      disagree: 0,
      sameErrorType: 1,
      callsInEmptyTurns: 0,
    });
    const text = await score(resultDir, "--data-v4", dataDir);
    expect(text.out).toMatch(/multi_turn_base\s+2\s+1\s+50\.00%\s+50\.00%\s+2\s+0\s+1\/1/);
  });

  it("decodes FC-mode steps ({name: arguments}) as BFCL does", async () => {
    const { resultDir, dataDir } = setup([
      [[[{ mkdir: '{"dir_name": "new"}' }]], [[{ cat: { file_name: "a.txt" } }]]],
      [[[{ mkdir: '{"dir_name": "new"}' }]], []],
    ]);
    const { out } = await score(resultDir, "--data-v4", dataDir, "--json");
    const category = JSON.parse(out).categories.multi_turn_base;
    expect(category).toMatchObject({ total: 2, correct: 1 });
  });

  it("fails fewer turns as force-terminated; more turns, an undecodable step or an unknown environment exit 2", async () => {
    const short = setup([[["mkdir(dir_name='new')"]], [["mkdir(dir_name='new')"], ["cat(file_name='a.txt')"]]]);
    expect(
      JSON.parse((await score(short.resultDir, "--data-v4", short.dataDir, "--json")).out).categories.multi_turn_base
        .correct,
    ).toBe(1);

    const long = setup([[["mkdir(dir_name='new')"], ["cat(file_name='a.txt')"], ["ls()"]], []]);
    const tooMany = await score(long.resultDir, "--data-v4", long.dataDir);
    expect(tooMany.code).toBe(2);
    expect(tooMany.err).toMatch(
      /^error: \S+BFCL_v4_multi_turn_base_result\.json:1: multi_turn_base_0: 3 turns, but the entry has 2[^\n]*\n$/,
    );

    const step = setup([[["mkdir(dir_name='new')"], [42]], []]);
    const undecodable = await score(step.resultDir, "--data-v4", step.dataDir);
    expect(undecodable.code).toBe(2);
    expect(undecodable.err).toMatch(/^error: \S+:1: multi_turn_base_0: turn 1 step 0 is int: undecodable[^\n]*\n$/);

    const weather = setup([[["mkdir(dir_name='new')"], []], []], { environment: "WeatherAPI" });
    const unknown = await score(weather.resultDir, "--data-v4", weather.dataDir);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/^error: \S+:1: multi_turn_base_0: unknown environment WeatherAPI[^\n]*\n$/);
  });
});
