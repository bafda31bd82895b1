/**
 * The dataset through the real pipeline with each provider: `ollama` and `openai` pointed at the
 * stand-in (which answers from sim:slm-3b) must produce exactly what the simulator produces when the
 * agent talks to it directly — same plans, tool calls, answers, hence the same scores. And a run
 * recorded to a cassette and replayed reproduces its results byte for byte, timings aside.
 */

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Standin, startStandin } from "../../mock-servers/ollama/server.ts";
import type { AgentResult, Strategy } from "../../src/agent/types.ts";
import { loadDataset } from "../../src/bench/dataset/load.ts";
import type { ClientPool } from "../../src/mcp/pool.ts";
import { RecordingProvider, ReplayProvider } from "../../src/models/cassette.ts";
import { OllamaProvider } from "../../src/models/ollama.ts";
import { OpenAIProvider } from "../../src/models/openai.ts";
import { createSimProvider } from "../../src/models/sim/index.ts";
import type { ModelProvider } from "../../src/models/types.ts";
import { openGithubPool, outcome, runPipeline } from "../support/pipeline-runs.ts";

const gold = loadDataset().map((loaded) => loaded.item);
/** Every third github item: all categories, a third of the time. */
const items = loadDataset("datasets/github.jsonl")
  .map((loaded) => loaded.item)
  .filter((_, index) => index % 3 === 0);
const strategies: Strategy[] = ["auto", "native"];
const sim = () => createSimProvider({ profile: "slm-3b", gold, seed: 7 });

let pool: ClientPool;
let standin: Standin;

beforeAll(async () => {
  pool = await openGithubPool();
  standin = await startStandin({ provider: sim(), port: 0 });
});

afterAll(async () => {
  await pool?.close();
  await standin?.close();
});

/** Every item under every strategy. */
function runAll(model: ModelProvider): Promise<AgentResult[]> {
  return runPipeline(pool, model, items, strategies);
}

/** The result as JSON, without wall-clock fields. */
function withoutTimings(result: AgentResult): string {
  return JSON.stringify(result, (key, value) =>
    key === "startMs" || key === "durationMs" || key === "timings" ? undefined : value,
  );
}

describe(`the pipeline over ${items.length} github items × ${strategies.join(", ")}`, () => {
  let direct: AgentResult[];

  beforeAll(async () => {
    direct = await runAll(sim());
  });

  it("runs a realistic mix: tool calls made, mistakes injected, some failures", () => {
    const calls = direct.flatMap((result) => result.toolCalls);
    expect(calls.length).toBeGreaterThan(items.length);
    expect(calls.some((call) => !call.ok)).toBe(true);
    expect(direct.some((result) => result.rescues.length > 0 || result.fallback.used)).toBe(true);
  });

  it("ollama → stand-in (the real ollama client) gives exactly the simulator's outcomes", async () => {
    const viaOllama = await runAll(new OllamaProvider({ model: "qwen2.5:3b", host: standin.url }));
    expect(viaOllama.map(outcome)).toEqual(direct.map(outcome));
  });

  it("openai → stand-in gives exactly the simulator's outcomes", async () => {
    const viaOpenAI = await runAll(new OpenAIProvider({ model: "qwen2.5:3b", baseUrl: `${standin.url}/v1` }));
    expect(viaOpenAI.map(outcome)).toEqual(direct.map(outcome));
  });

  it("a recorded run replays byte for byte (timings aside), with every recorded answer used", async () => {
    const cassette = join(mkdtempSync(join(tmpdir(), "pipeline-")), "run.cassette.jsonl");
    const live = new OllamaProvider({ model: "qwen2.5:3b", host: standin.url });
    const recorded = await runAll(new RecordingProvider(live, cassette));
    const replay = new ReplayProvider(cassette, live.id);
    const replayed = await runAll(replay);
    expect(replayed.map(withoutTimings)).toEqual(recorded.map(withoutTimings));
    expect(replay.remaining()).toBe(0);
    expect(recorded.map(outcome)).toEqual(direct.map(outcome));
  });
});
