/**
 * Tool calls left as text, end to end through the real providers: a fault front (test/support/
 * text-call-front.ts) stands between the bench and the stand-in and returns a share of the stand-in's tool
 * calls as text, in each of the five formats small models write. `native` must count every rewritten call
 * and never score one as a tool-choice mistake; `native-recover` through the front must score exactly what
 * `native` scores without it. The OpenAI-compatible path gets the same detection.
 *
 * And constrained decoding: `jsonl-constrained` against the stand-in honouring `format` has no parse
 * failure on 100 items (free `jsonl` on the same items has some); a stand-in that ignores `format` stops
 * the run before its first item, with the configuration named.
 */

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Standin, startStandin } from "../../mock-servers/ollama/server.ts";
import { loadDataset } from "../../src/bench/dataset/load.ts";
import { type BenchOutcome, runBench } from "../../src/bench/run/bench.ts";
import type { RunRecord } from "../../src/bench/run/run-file-types.ts";
import { RUN_FILES, readJsonl } from "../../src/bench/run/store.ts";
import { reportError } from "../../src/cli/exit.ts";
import { createSimProvider } from "../../src/models/sim/index.ts";
import { benchRequest } from "../support/bench-run.ts";
import { FRONT_FORMATS, type TextCallFront, textCallFront } from "../support/text-call-front.ts";

const root = mkdtempSync(join(tmpdir(), "onsetlab-text-calls-"));
const modelsFile = join(root, "models.yaml");
const gold = loadDataset().map((loaded) => loaded.item);
let standin: Standin;
let ignoring: Standin;
let chaos: Standin;
const fronts: TextCallFront[] = [];

/** Tool-choice mistakes: what a call left as text must never be counted as. */
const CHOICE_MISTAKES = ["wrong_tool", "hallucinated_tool", "missing_call"];

beforeAll(async () => {
  const provider = (profile = "slm-3b") => createSimProvider({ profile, gold });
  standin = await startStandin({ provider: provider(), port: 0 });
  ignoring = await startStandin({ provider: provider(), port: 0, behaviour: { ignoreFormat: true } });
  // garbage-prone: free jsonl on it has parse failures for the constraint to remove
  chaos = await startStandin({ provider: provider("chaos"), port: 0 });
  const [native, recover, openai] = await Promise.all([0, 1, 2].map(() => textCallFront(standin.url, 0.5)));
  fronts.push(native!, recover!, openai!);
  writeFileSync(
    modelsFile,
    [
      "models:",
      `  direct: { provider: ollama, model: qwen2.5:3b, host: "${standin.url}" }`,
      `  front-native: { provider: ollama, model: qwen2.5:3b, host: "${native!.url}" }`,
      `  front-recover: { provider: ollama, model: qwen2.5:3b, host: "${recover!.url}" }`,
      `  front-openai: { provider: openai, model: qwen2.5:3b, base_url: "${openai!.url}/v1", context_window: 32768 }`,
      `  ignoring: { provider: ollama, model: qwen2.5:3b, host: "${ignoring.url}" }`,
      `  chaos: { provider: ollama, model: qwen2.5:3b, host: "${chaos.url}" }`,
      "configurations:",
      "  native: { strategy: native }",
      "  native-recover: { strategy: native, recover_text_calls: on }",
      "  jsonl: { strategy: jsonl }",
      "  jsonl-constrained: { strategy: jsonl, decoding: constrained }",
      "",
    ].join("\n"),
  );
});

afterAll(async () => {
  await Promise.all([standin?.close(), ignoring?.close(), chaos?.close(), ...fronts.map((front) => front.close())]);
  rmSync(root, { recursive: true, force: true });
});

function bench(model: string, configs: string[], limit: number): Promise<BenchOutcome> {
  return runBench({
    request: benchRequest({ models: [model], configs, matrix: undefined, limit }),
    modelsFile,
    resultsRoot: join(root, "results"),
  });
}

function records(outcome: BenchOutcome): RunRecord[] {
  return readJsonl<RunRecord>(join(outcome.dir, RUN_FILES.records)).rows;
}

const byItem = (rows: readonly RunRecord[]) => new Map(rows.map((row) => [row.itemId, row]));

describe("tool calls left as text by the server", () => {
  it("native counts every rewritten call, in every format, never as a tool-choice mistake; native-recover scores what native scores without the front", async () => {
    const [front, recoverFront] = fronts as [TextCallFront, TextCallFront];
    const direct = await bench("direct", ["native"], 60);
    const throughFront = await bench("front-native", ["native"], 60);
    const recovered = await bench("front-recover", ["native-recover"], 60);

    // the front rewrote calls in each of the five formats, and native counted every one
    const rewritten = FRONT_FORMATS.reduce((sum, format) => sum + front.calls[format], 0);
    for (const format of FRONT_FORMATS) expect(front.calls[format], format).toBeGreaterThan(0);
    expect(throughFront.summary.rows[0]!.toolCallsAsText).toEqual({ calls: rewritten, items: front.answers });
    const found = records(throughFront).flatMap((row) => row.result.toolCallsAsText ?? []);
    for (const format of FRONT_FORMATS) {
      const counted = found.filter((entry) => entry.format === format).reduce((sum, e) => sum + e.calls.length, 0);
      expect(counted, format).toBe(front.calls[format]);
    }
    expect(found.every((entry) => !entry.executed && entry.raw.length > 0)).toBe(true);

    // what the template lost, and no item of it taken for the model's choice
    const affected = records(throughFront).filter((row) => row.score.toolCallsAsText);
    expect(affected.length).toBe(front.answers);
    for (const row of affected) {
      expect(
        row.score.failures.filter((kind) => CHOICE_MISTAKES.includes(kind)),
        row.itemId,
      ).toEqual([]);
      if (!row.score.taskSuccess) expect(row.score.failures, row.itemId).toContain("tool_call_as_text");
    }
    expect(affected.some((row) => !row.score.taskSuccess)).toBe(true);
    expect(throughFront.summary.rows[0]!.taskSuccess.k).toBeLessThan(direct.summary.rows[0]!.taskSuccess.k);

    // native-recover through the front: item for item, what native scores without it
    const recoveredCalls = FRONT_FORMATS.reduce((sum, format) => sum + recoverFront.calls[format], 0);
    expect(recoveredCalls).toBeGreaterThan(0);
    expect(recovered.summary.rows[0]!.toolCallsAsText?.calls).toBe(recoveredCalls);
    const plain = byItem(records(direct));
    for (const row of records(recovered)) {
      const same = plain.get(row.itemId)!;
      expect(row.score.taskSuccess, row.itemId).toBe(same.score.taskSuccess);
      expect(row.score.failures, row.itemId).toEqual(same.score.failures);
      expect(row.score.toolChoice, row.itemId).toEqual(same.score.toolChoice);
    }
    expect(recovered.summary.rows[0]!.taskSuccess).toEqual(direct.summary.rows[0]!.taskSuccess);
  });

  it("finds the calls an OpenAI-compatible server returned in `content`", async () => {
    const openaiFront = fronts[2]!;
    const outcome = await bench("front-openai", ["native"], 30);
    const rewritten = FRONT_FORMATS.reduce((sum, format) => sum + openaiFront.calls[format], 0);
    expect(rewritten).toBeGreaterThan(0);
    expect(outcome.summary.rows[0]!.toolCallsAsText).toEqual({ calls: rewritten, items: openaiFront.answers });
  });
});

describe("constrained decoding", () => {
  it("jsonl-constrained against a stand-in honouring format: no parse failure on 100 items (free jsonl has some)", async () => {
    const outcome = await bench("chaos", ["jsonl", "jsonl-constrained"], 100);
    const rows = records(outcome);
    const parseFailures = (config: string) =>
      rows
        .filter((row) => row.config === config)
        .flatMap((row) => row.result.iterations)
        .filter((turn) => turn.parseError !== undefined).length;
    expect(rows.filter((row) => row.config === "jsonl-constrained")).toHaveLength(100);
    expect(parseFailures("jsonl-constrained")).toBe(0);
    expect(parseFailures("jsonl")).toBeGreaterThan(0);
    const constrainedCalls = rows
      .filter((row) => row.config === "jsonl-constrained")
      .flatMap((row) => row.result.modelCalls);
    expect(constrainedCalls.every((call) => call.constrained === true)).toBe(true);
  });

  it("a server that ignores format stops the run before its first item, exit 2, naming the configuration", async () => {
    const error = await bench("ignoring", ["jsonl", "jsonl-constrained"], 5).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(reportError(error, () => {})).toBe(2);
    expect((error as Error).message).toMatch(/model ignoring ignored the format .*configuration jsonl-constrained/);
  });

  it("decoding: constrained on a strategy other than jsonl is refused before the first item", async () => {
    writeFileSync(
      join(root, "bad.yaml"),
      "configurations:\n  native-constrained: { strategy: native, decoding: constrained }\n",
    );
    const error = await runBench({
      request: benchRequest({ models: ["sim:oracle"], configs: ["native-constrained"], matrix: undefined, limit: 2 }),
      modelsFile: join(root, "bad.yaml"),
      resultsRoot: join(root, "results"),
    }).catch((caught: unknown) => caught);
    expect(reportError(error, () => {})).toBe(2);
    expect((error as Error).message).toContain("configuration native-constrained (strategy native)");
  });
});
