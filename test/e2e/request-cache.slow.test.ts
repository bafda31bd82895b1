/**
 * The request cache against real processes and servers: a writer killed with SIGKILL leaves a readable
 * store; identical requests in flight reach a stand-in once; a second bench run against the stand-in
 * sends no generation, `--no-cache` sends every one; a model with two base URLs spreads its calls.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Standin, startStandin } from "../../mock-servers/ollama/server.ts";
import { loadDataset } from "../../src/bench/dataset/load.ts";
import { runBench } from "../../src/bench/run/bench.ts";
import type { RunManifest } from "../../src/bench/run/run-file-types.ts";
import { RUN_FILES } from "../../src/bench/run/store.ts";
import { parseModelsConfig, resolveModel } from "../../src/config/models-yaml.ts";
import { createProvider } from "../../src/models/factory.ts";
import { RequestCache } from "../../src/models/request-cache.ts";
import { createSimProvider } from "../../src/models/sim/index.ts";
import {
  benchRequest,
  modelsFileWith,
  REPO_ROOT,
  runCli,
  shippedModelsYaml,
  strictRecordLines,
} from "../support/bench-run.ts";
import { EchoModel } from "../support/echo-model.ts";

const temp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

/**
 * test/support/cache-writer.ts writing into `dir` in a child process; `written()` is the count it last
 * printed, and `reached` settles once it has written `count` answers.
 */
function startWriter(dir: string, count: number) {
  const child = spawn(process.execPath, ["--import", "tsx", "test/support/cache-writer.ts", dir], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let written = 0;
  const reached = new Promise<void>((resolve, reject) => {
    child.on("error", reject);
    child.stdout.on("data", (chunk: Buffer) => {
      written = Number(chunk.toString().trim().split("\n").at(-1));
      if (written >= count) resolve();
    });
  });
  return { child, reached, written: () => written };
}

describe("a killed writer", () => {
  it("leaves the cache readable: every answer it committed is whole", async () => {
    const dir = temp("onsetlab-cache-kill-");
    const writer = startWriter(dir, 300);
    const { child } = writer;
    await writer.reached;
    child.kill("SIGKILL");
    const written = writer.written();
    await new Promise((resolve) => child.on("exit", resolve));
    expect(child.signalCode).toBe("SIGKILL");
    const cache = new RequestCache(dir);
    try {
      const { entries } = cache.stats();
      expect(entries).toBeGreaterThanOrEqual(written);
      for (let index = 0; index < entries; index += 1) {
        const answer = cache.get("writer", `hash-${index}`);
        expect(answer?.response.text.startsWith(`answer ${index} `)).toBe(true);
        expect(answer?.response.text).toHaveLength(`answer ${index} `.length + 2000);
      }
    } finally {
      await cache.close();
    }
  });
});

describe("a writer in another process", () => {
  // the concurrency case CI found: the check's walk and count raced a writer and called a healthy store damaged
  it("does not make the damage check quarantine the store it is writing", async () => {
    const dir = temp("onsetlab-cache-busy-");
    const writer = startWriter(dir, 50);
    const notices: string[] = [];
    let advancedDuringCheck = 0;
    try {
      await writer.reached;
      for (let round = 0; round < 5; round += 1) {
        // each open checks the store (a child walks it) while the writer commits
        const before = writer.written();
        const cache = new RequestCache(dir, (line) => notices.push(line));
        await new Promise((resolve) => setImmediate(resolve)); // lets the writer's output in
        if (writer.written() > before) advancedDuringCheck += 1;
        // the notices first: a store moved aside names why the check called it damaged
        expect(notices).toEqual([]);
        expect(cache.get("writer", "hash-0")?.response.text.startsWith("answer 0 ")).toBe(true);
        await cache.close();
      }
    } finally {
      writer.child.kill("SIGKILL");
    }
    expect(notices).toEqual([]);
    expect(readdirSync(dir).filter((name) => name.includes(".damaged-"))).toEqual([]);
    // the checks really overlapped the writes
    expect(advancedDuringCheck).toBeGreaterThan(0);
  });
});

describe("against the stand-in", () => {
  let standin: Standin;
  let second: Standin;

  beforeAll(async () => {
    const gold = loadDataset().map((loaded) => loaded.item);
    standin = await startStandin({ provider: createSimProvider({ profile: "slm-3b", gold, seed: 1 }), port: 0 });
    second = await startStandin({ provider: new EchoModel(), port: 0 });
  });

  afterAll(async () => {
    await standin.close();
    await second.close();
  });

  it("sends identical requests in flight once", async () => {
    const cache = new RequestCache(temp("onsetlab-cache-"));
    const models = parseModelsConfig(
      `configurations: {}\nmodels:\n  m: { provider: ollama, model: qwen2.5:3b, host: "${second.url}" }\n`,
      "models.yaml",
    );
    const provider = createProvider(resolveModel(models, "m"), { cache });
    await provider.describe!();
    const before = second.requests();
    const request = { stage: "planner" as const, prompt: "the same question", options: { temperature: 0 } };
    const answers = await Promise.all([1, 2, 3, 4].map(() => provider.complete(request)));
    expect(second.requests() - before).toBe(1);
    expect(new Set(answers.map((answer) => answer.text))).toEqual(new Set(["echo: the same question"]));
    await cache.close();
  });

  it("a second bench run sends no generation (only the probe); --no-cache sends every one", async () => {
    const cacheDir = temp("onsetlab-cache-");
    const resultsRoot = temp("onsetlab-results-");
    const models = modelsFileWith(`  standin-qwen: { provider: ollama, model: qwen2.5:3b, host: "${standin.url}" }\n`);
    const request = benchRequest({
      models: ["standin-qwen"],
      configs: ["onsetlab", "no-rescue"],
      first: 3,
      matrix: undefined,
    });
    const run = async (cache: boolean) => {
      const before = standin.requests();
      const outcome = await runBench({ request, resultsRoot, modelsFile: models, ...(cache ? { cacheDir } : {}) });
      const manifest = JSON.parse(readFileSync(join(outcome.dir, RUN_FILES.run), "utf8")) as RunManifest;
      return { served: standin.requests() - before, outcome, session: manifest.sessions[0]! };
    };
    const first = await run(true);
    const again = await run(true);
    const uncached = await run(false);
    // the probe (version, show, tags, warm-up) is all a cached run sends
    const probe =
      uncached.served - (first.session.cache!.misses + first.session.cache!.hits + first.session.cache!.coalesced);
    expect(first.session.cache).toMatchObject({ dir: cacheDir });
    expect(first.session.cache!.misses).toBeGreaterThan(0);
    expect(again.session.cache).toMatchObject({
      misses: 0,
      hits: first.session.cache!.misses + first.session.cache!.hits,
    });
    expect(again.served).toBe(first.served - first.session.cache!.misses);
    expect(uncached.session.cache).toBeUndefined();
    expect(uncached.served).toBeGreaterThan(first.served);
    expect(probe).toBeGreaterThan(0);
    // a cached run scores the same, and its records say which calls came from the cache
    expect(again.outcome.summary.rows.map((row) => row.taskSuccess.value)).toEqual(
      first.outcome.summary.rows.map((row) => row.taskSuccess.value),
    );
    const calls = strictRecordLines(again.outcome.dir).flatMap((record) => record.result.modelCalls);
    // every call was deterministic (the run's seed reaches the model), so every one came from the cache
    expect(calls.filter((call) => call.cached)).toHaveLength(calls.length);
    expect(calls.length).toBe(again.session.cache!.hits);
    expect(uncached.served).toBe(first.served + first.session.cache!.hits + first.session.cache!.coalesced);
  });

  it("the CLI: a repeated bench answers from the cache, --no-cache sends again, cache stats and clear --model", async () => {
    const env = { ONSETLAB_CACHE_DIR: temp("onsetlab-cache-"), ONSETLAB_RESULTS_DIR: temp("onsetlab-results-") };
    const models = join(temp("onsetlab-models-"), "models.yaml");
    const shipped = shippedModelsYaml();
    const entries = `models:\n  a: { provider: ollama, model: qwen2.5:3b, host: "${second.url}" }\n  b: { provider: ollama, model: llama3.2:3b, host: "${second.url}" }\n`;
    writeFileSync(models, shipped.replace(/^models:\n/m, entries));
    const bench = async (...extra: string[]) => {
      const outcome = await runCli(
        ["bench", "--models", models, "--model", "a,b", "--config", "native", "--first", "2", "--json", ...extra],
        env,
      );
      expect(outcome.code, outcome.stderr).toBe(0);
      return (JSON.parse(outcome.stdout) as { cache?: { hits: number; misses: number } }).cache;
    };
    const first = await bench();
    expect(first?.misses).toBeGreaterThan(0);
    expect(await bench()).toMatchObject({ hits: first!.misses + first!.hits, misses: 0 });
    const before = second.requests();
    expect(await bench("--no-cache")).toBeUndefined();
    const probe = 2 * 4; // per model: version, show, tags, warm-up
    const estimate = 2 * 4; // per model, for the progress bar's ETA: version, show, tags, one timed request
    expect(second.requests() - before).toBe(probe + estimate + first!.misses + first!.hits);
    const stats = async () => {
      const outcome = await runCli(["cache", "stats", "--json"], env);
      return (JSON.parse(outcome.stdout) as { models: Record<string, number> }).models;
    };
    const cleared = await runCli(["cache", "clear", "--model", "a"], env);
    // both models asked the same questions: each holds half of what the first run stored
    const each = first!.misses / 2;
    expect(cleared.stdout).toContain(`removed ${each} cached answers of a`);
    expect(await stats()).toEqual({ b: each });
  }, 180_000);

  it("spreads a model's calls over its base URLs, each within its concurrency, and records which served each", async () => {
    const third = await startStandin({ provider: new EchoModel(), port: 0, pace: 200 });
    try {
      const models = parseModelsConfig(
        `configurations: {}\nmodels:\n  pooled:\n    provider: ollama\n    model: qwen2.5:3b\n    base_urls: ["${second.url}", { url: "${third.url}", concurrency: 2 }]\n`,
        "models.yaml",
      );
      const provider = createProvider(resolveModel(models, "pooled"));
      // every server loads the model (and each URL's provider reads its facts) before the counted calls
      await provider.warmUp!();
      await Promise.all([1, 2, 3].map((n) => provider.complete({ stage: "planner", prompt: `warm ${n}` })));
      const before = [second.requests(), third.requests()];
      const answers = await Promise.all(
        [1, 2, 3, 4, 5, 6].map((n) =>
          provider.complete({
            stage: "planner",
            prompt: `question ${n} with some words`,
            options: { temperature: 0.5 },
          }),
        ),
      );
      const served = [second.requests() - before[0]!, third.requests() - before[1]!];
      expect(served[0]! + served[1]!).toBe(6);
      expect(served.every((count) => count > 0)).toBe(true);
      expect(new Set(answers.map((answer) => answer.servedBy))).toEqual(new Set([second.url, third.url]));
      expect(answers.filter((answer) => answer.servedBy === third.url)).toHaveLength(served[1]!);
    } finally {
      await third.close();
    }
  });
});
