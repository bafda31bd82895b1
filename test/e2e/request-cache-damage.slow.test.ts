/**
 * Cache fuzzing: a filled request cache is damaged 200 times (random bytes anywhere, truncation, the
 * header pages), each damage on a fresh copy followed by a small bench run against the stand-in. No run
 * may crash the process, and every run's outcomes must equal a `--no-cache` run's: a damaged store is
 * moved aside, a damaged answer is a miss, and nothing damaged is ever scored.
 */
import {
  closeSync,
  copyFileSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Standin, startStandin } from "../../mock-servers/ollama/server.ts";
import { loadDataset } from "../../src/bench/dataset/load.ts";
import { runBench } from "../../src/bench/run/bench.ts";
import type { RunManifest, RunRecord } from "../../src/bench/run/run-file-types.ts";
import { RUN_FILES } from "../../src/bench/run/store.ts";
import { requestCacheAt, STORE_FILE } from "../../src/models/request-cache.ts";
import { createSimProvider } from "../../src/models/sim/index.ts";
import { seededRandom } from "../../src/random.ts";
import { benchRequest, modelsFileWith, strictRecordLines } from "../support/bench-run.ts";

const temp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));
const DAMAGES = Number(process.env.FUZZ_DAMAGES ?? 200);
const KINDS = ["bytes", "truncation", "header"] as const;

/** What a run scored, per record: everything but costs and timings (a cached call is as fast as it was). */
function outcomes(dir: string): string[] {
  return strictRecordLines(dir)
    .map((record: RunRecord) => {
      const { cost: _cost, latency: _latency, ...score } = record.score;
      const calls = record.result.modelCalls.map((call) => call.invalid ?? "valid");
      return JSON.stringify({ key: record.key, score, error: record.result.error?.stage, calls });
    })
    .sort();
}

/** One damage to the file, by kind, from the seeded random source. */
function damage(file: string, kind: (typeof KINDS)[number], random: () => number): void {
  const size = statSync(file).size;
  if (kind === "truncation") {
    truncateSync(file, Math.floor(random() * size));
    return;
  }
  const span = kind === "header" ? Math.min(size, 8192) : size;
  const length = 1 + Math.floor(random() * 64);
  const bytes = Buffer.from(Array.from({ length }, () => Math.floor(random() * 256)));
  const fd = openSync(file, "r+");
  try {
    writeSync(fd, bytes, 0, length, Math.floor(random() * Math.max(1, span - length)));
  } finally {
    closeSync(fd);
  }
}

describe("the request cache under random damage", () => {
  let standin: Standin;
  let models: string;
  const resultsRoot = temp("onsetlab-fuzz-results-");
  const request = benchRequest({
    models: ["standin-qwen"],
    configs: ["native"],
    filter: { category: ["single", "multi"] },
    first: 2,
    matrix: undefined,
  });

  beforeAll(async () => {
    const gold = loadDataset().map((loaded) => loaded.item);
    standin = await startStandin({ provider: createSimProvider({ profile: "slm-3b", gold, seed: 1 }), port: 0 });
    models = modelsFileWith(`  standin-qwen: { provider: ollama, model: qwen2.5:3b, host: "${standin.url}" }\n`);
  });

  afterAll(async () => {
    await standin.close();
  });

  const run = async (cacheDir?: string) => {
    const outcome = await runBench({ request, resultsRoot, modelsFile: models, ...(cacheDir ? { cacheDir } : {}) });
    if (cacheDir) await requestCacheAt(cacheDir).close();
    const manifest = JSON.parse(readFileSync(join(outcome.dir, RUN_FILES.run), "utf8")) as RunManifest;
    return { outcomes: outcomes(outcome.dir), cache: manifest.sessions[0]?.cache };
  };

  it(`${DAMAGES} damages, each followed by a run: no crash, and the outcomes of a --no-cache run`, async () => {
    const uncached = await run();
    const filled = temp("onsetlab-fuzz-cache-");
    const first = await run(filled);
    expect(first.outcomes).toEqual(uncached.outcomes);
    const pristine = join(filled, STORE_FILE);
    const random = seededRandom(33);
    const tally = {
      runs: 0,
      byKind: { bytes: 0, truncation: 0, header: 0 },
      quarantined: 0,
      damagedReads: 0,
      allHits: 0,
    };
    // four runs at a time: each on its own copy, all against the one stand-in
    const trial = async (index: number) => {
      const kind = KINDS[index % KINDS.length]!;
      const dir = temp("onsetlab-fuzz-damaged-");
      copyFileSync(pristine, join(dir, STORE_FILE));
      damage(join(dir, STORE_FILE), kind, random);
      const damaged = await run(dir);
      expect(damaged.outcomes, `damage ${index} (${kind})`).toEqual(uncached.outcomes);
      tally.runs += 1;
      tally.byKind[kind] += 1;
      if (readdirSync(dir).some((name) => name.includes(".damaged-"))) tally.quarantined += 1;
      tally.damagedReads += damaged.cache?.damaged ?? 0;
      if (damaged.cache?.misses === 0) tally.allHits += 1;
    };
    for (let index = 0; index < DAMAGES; index += 4) {
      await Promise.all(
        [0, 1, 2, 3]
          .map((step) => index + step)
          .filter((at) => at < DAMAGES)
          .map(trial),
      );
    }
    // the figures the issue asks for (the report quotes them)
    process.stdout.write(`cache fuzz: ${JSON.stringify(tally)}\n`);
    expect(tally.runs).toBe(DAMAGES);
  }, 1_800_000);
});
