/**
 * The gate end to end: real bench runs (the agent against the mock servers), the `gate` and `report`
 * commands as a user runs them. A baseline of the normal run; an unchanged run passes; a run with a
 * deliberately injected regression — the `onsetlab-plus` configuration with rescue and fallback switched off
 * under the same name — fails. Once with the simulator (deterministic: exact match) and once with the
 * Ollama provider against the stand-in server (a live model to the gate: the paired test decides).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Standin, startStandin } from "../../mock-servers/ollama/server.ts";
import { loadDataset } from "../../src/bench/dataset/load.ts";
import { runBench } from "../../src/bench/run/bench.ts";
import { createSimProvider } from "../../src/models/sim/index.ts";
import { BINARY_METRICS, POOLED_METRICS } from "../../src/report/metrics.ts";
import { binaryRate, decodeBinary, decodePooled, loadOutcomes, pooledRate } from "../../src/report/outcomes.ts";
import { loadRun } from "../../src/report/runs.ts";
import { shippedModelsYaml } from "../support/bench-run.ts";

const root = mkdtempSync(join(tmpdir(), "gate-e2e-"));
const ITEMS = 120;
/** One gate check per item metric. */
const CHECKS = BINARY_METRICS.length + POOLED_METRICS.length;

/** models.yaml with `onsetlab-plus` broken on purpose: no rescue, no fallback. */
function regressedModelsFile(): string {
  const original = shippedModelsYaml();
  const broken = original.replace(/^ {2}onsetlab-plus:[^{]*\{[^}]*\}$/m, (block) =>
    block.replace("rescue: extended", "rescue: off").replace("fallback: true", "fallback: false"),
  );
  expect(broken).not.toBe(original);
  const file = join(root, "models-regressed.yaml");
  writeFileSync(file, broken);
  return file;
}

async function bench(model: string, options: { modelsFile?: string; limit?: number } = {}): Promise<string> {
  const outcome = await runBench({
    request: {
      models: [model],
      configs: ["onsetlab-plus"],
      dataset: [],
      filter: {},
      limit: options.limit ?? ITEMS,
      seed: 1,
      repeats: 1,
      transport: "memory",
    },
    concurrency: 4,
    modelsFile: options.modelsFile,
    resultsRoot: root,
  });
  expect(outcome.failures).toEqual([]);
  return outcome.dir;
}

interface Cli {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(...args: string[]): Promise<Cli> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [
      "--import",
      "tsx",
      "src/cli/bin.ts",
      ...args,
    ]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("gate on simulated runs (exact)", () => {
  const runs: Record<string, string> = {};
  const baseline = join(root, "baselines", "sim.json");

  beforeAll(async () => {
    runs.normal = await bench("sim:slm-3b");
    runs.again = await bench("sim:slm-3b");
    runs.regressed = await bench("sim:slm-3b", { modelsFile: regressedModelsFile() });
    runs.fewer = await bench("sim:slm-3b", { limit: 30 });
    const update = await cli("gate", "--baseline", baseline, "--run", runs.normal, "--update");
    expect(update.code, update.stderr).toBe(0);
  }, 240_000);

  it("keeps per-item outcomes whose counts equal summary.json's", () => {
    const run = loadRun(runs.normal!, root);
    const outcomes = loadOutcomes(run);
    const [entry] = outcomes.entries;
    const row = run.summary.rows[0]!;
    for (const metric of BINARY_METRICS) {
      expect([metric.name, binaryRate(decodeBinary(entry!.binary[metric.name]))]).toEqual([
        metric.name,
        row[metric.name],
      ]);
    }
    for (const metric of POOLED_METRICS) {
      expect([metric.name, pooledRate(decodePooled(entry!.pooled[metric.name]))]).toEqual([
        metric.name,
        row[metric.name],
      ]);
    }
    const baselineFile = JSON.parse(readFileSync(baseline, "utf8"));
    expect(baselineFile.outcomes.entries[0].binary.taskSuccess).toBe(entry!.binary.taskSuccess);
  });

  it("passes an unchanged run", async () => {
    const result = await cli("gate", "--baseline", baseline, "--run", runs.again!);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(`gate: all ${CHECKS} checks hold \\(1 model × configurations; exact match required for sim:slm-3b\\)`),
    );
  });

  it("fails the injected regression, naming each metric with old, new and interval", async () => {
    const result = await cli("gate", "--baseline", baseline, "--run", runs.regressed!);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /FAIL sim:slm-3b × onsetlab-plus · task success: \d+\/120 [\d.]+% \[[\d.–]+\] → \d+\/120 [\d.]+% \[[\d.–]+\]; Δ [−+]?[\d.]+ pp .* item outcomes changed in a deterministic run/,
    );
    expect(result.stdout).toContain(
      'note: sim:slm-3b × onsetlab-plus resolves differently from the baseline: fallback true → false, rescue "extended" → "off"',
    );
    expect(result.stderr).toMatch(
      new RegExp(`^error: gate failed: \\d+ of ${CHECKS} checks against .* \\([1-9]\\d* regressed, \\d+ improved`, "m"),
    );
  });

  it("exits 2 on a baseline of another dataset, a missing baseline, or an unknown run", async () => {
    const other = await cli("gate", "--baseline", baseline, "--run", runs.fewer!);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/was made on dataset hash \w+ \(120 items\); run .* used \w+ \(30 items\)/);
    const missing = await cli("gate", "--baseline", join(root, "nope.json"), "--run", runs.again!);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.json: no such file; create it/);
    const unknown = await cli("gate", "--baseline", baseline, "--run", join(root, "no-such-run"));
    expect(unknown.code).toBe(2);
  });

  it("compares two runs side by side with the paired test", async () => {
    const result = await cli("report", "--compare", runs.normal!, runs.regressed!, "--json");
    expect(result.code, result.stderr).toBe(0);
    const table = JSON.parse(result.stdout);
    const [row] = table.rows;
    expect(row.key).toEqual({ model: "sim:slm-3b", config: "onsetlab-plus" });
    const normal = loadRun(runs.normal!, root).summary.rows[0]!.taskSuccess;
    const regressed = loadRun(runs.regressed!, root).summary.rows[0]!.taskSuccess;
    const cells = Object.fromEntries(table.columns.map((c: { header: string }, i: number) => [c.header, row.cells[i]]));
    expect(cells["A task success"].rate).toEqual(normal);
    expect(cells["B task success"].rate).toEqual(regressed);
    expect(cells["Δ task success"].value).toBeCloseTo((regressed.k - normal.k) / ITEMS, 10);
  });
});

describe("gate on a live model (the Ollama provider against the stand-in)", () => {
  let standin: Standin;
  const saved = process.env.OLLAMA_HOST;
  const runs: Record<string, string> = {};
  const baseline = join(root, "baselines", "live.json");

  beforeAll(async () => {
    const gold = loadDataset().map((loaded) => loaded.item);
    standin = await startStandin({ provider: createSimProvider({ profile: "slm-3b", gold, seed: 1 }), port: 0 });
    process.env.OLLAMA_HOST = standin.url;
    runs.normal = await bench("qwen2.5:3b");
    runs.again = await bench("qwen2.5:3b");
    runs.regressed = await bench("qwen2.5:3b", { modelsFile: regressedModelsFile() });
    const update = await cli("gate", "--baseline", baseline, "--run", runs.normal, "--update");
    expect(update.code, update.stderr).toBe(0);
  }, 240_000);

  afterAll(async () => {
    if (saved === undefined) delete process.env.OLLAMA_HOST;
    else process.env.OLLAMA_HOST = saved;
    await standin?.close();
  });

  it("labels the run stand-in (the server says so) and gates it as a server's run: no exact-match requirement, and an unchanged run passes", async () => {
    expect(loadRun(runs.normal!, root).manifest.models[0]).toMatchObject({
      provider: "ollama",
      provenance: { kind: "stand-in" },
    });
    const result = await cli("gate", "--baseline", baseline, "--run", runs.again!);
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).not.toContain("exact match");
  });

  it("fails the injected regression only where the drop is beyond tolerance and significant", async () => {
    const result = await cli("gate", "--baseline", baseline, "--run", runs.regressed!);
    expect(result.code, result.stdout).toBe(1);
    expect(result.stdout).toMatch(
      // rescue and fallback off: the items they recovered are lost (task success, and the rescue rate with it)
      /FAIL qwen2\.5:3b × onsetlab-plus · (task success|rescue rate): .* — dropped by [\d.]+ points \(> tolerance 2\.0\), significant \(p = /,
    );
  });
});
