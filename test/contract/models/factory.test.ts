import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadModelsConfig, resolveModel } from "../../../src/config/models-yaml.ts";
import { InputError } from "../../../src/errors.ts";
import { CachingProvider } from "../../../src/models/caching-provider.ts";
import { RecordingProvider, ReplayProvider } from "../../../src/models/cassette.ts";
import { CassetteMissError, RemoteEndpointError } from "../../../src/models/errors.ts";
import { createProvider, providerId, seededEntry } from "../../../src/models/factory.ts";
import { OllamaProvider } from "../../../src/models/ollama.ts";
import { OpenAIProvider } from "../../../src/models/openai.ts";
import { isOpenAIEntry, type OpenAIProviderEntry } from "../../../src/models/providers/openai.ts";
import { RequestCache } from "../../../src/models/request-cache.ts";
import type { SimGoldItem } from "../../../src/models/sim/index.ts";

const config = loadModelsConfig();
const gold: SimGoldItem[] = [
  {
    id: "t-1",
    query: "Who am I on GitHub?",
    category: "single",
    route: "rewoo",
    calls: [{ tool: "get_me", args: {} }],
    order: "sequence",
  },
];

describe("createProvider", () => {
  it("builds the provider the entry names, with the id cassettes are keyed under", () => {
    const ollama = createProvider(resolveModel(config, "qwen2.5:3b"));
    expect(ollama).toBeInstanceOf(OllamaProvider);
    expect(ollama.id).toBe("ollama:qwen2.5:3b");
    const openai = createProvider(resolveModel(config, "llamacpp:qwen2.5-3b"));
    expect(openai).toBeInstanceOf(OpenAIProvider);
    expect(openai.id).toBe(providerId(resolveModel(config, "llamacpp:qwen2.5-3b")));
    expect((openai as OpenAIProvider).baseUrl).toBe("http://127.0.0.1:8080/v1");
    // the tokenizer endpoints are at the server's root; `tokenizer: off` asks none
    expect((openai as OpenAIProvider).tokenizer?.root).toBe("http://127.0.0.1:8080");
    const entry = resolveModel(config, "llamacpp:qwen2.5-3b");
    if (!isOpenAIEntry(entry)) throw new Error("an openai entry");
    const off: OpenAIProviderEntry = { ...entry, tokenizer: "off" };
    const offProvider = createProvider(off);
    expect((offProvider as OpenAIProvider).tokenizer).toBeUndefined();
    const sim = createProvider(resolveModel(config, "sim:oracle"), { gold, seed: 3 });
    expect(sim.id).toBe("sim:oracle");
    expect(providerId(resolveModel(config, "sim:oracle"))).toBe(sim.id);
  });

  it("answers through the simulator from the gold labels", async () => {
    const sim = createProvider(resolveModel(config, "sim:oracle"), { gold });
    const response = await sim.chat({
      stage: "native",
      messages: [{ role: "user", content: "Who am I on GitHub?" }],
      tools: [{ name: "get_me", description: "the user", parameters: { type: "object", properties: {} } }],
    });
    expect(response.toolCalls.map((call) => call.name)).toEqual(["get_me"]);
  });

  it("puts the request cache before real models only, unless the simulator is asked for", async () => {
    const cache = new RequestCache(mkdtempSync(join(tmpdir(), "onsetlab-cache-")));
    try {
      expect(createProvider(resolveModel(config, "qwen2.5:3b"), { cache })).toBeInstanceOf(CachingProvider);
      expect(createProvider(resolveModel(config, "sim:oracle"), { gold, cache })).not.toBeInstanceOf(CachingProvider);
      const sim = createProvider(resolveModel(config, "sim:oracle"), { gold, cache, cacheSimulator: true });
      expect(sim).toBeInstanceOf(CachingProvider);
      const request = {
        stage: "native" as const,
        messages: [{ role: "user" as const, content: "Who am I on GitHub?" }],
        options: { temperature: 0 },
      };
      await sim.chat(request);
      await sim.chat(request);
      expect(cache.counters).toMatchObject({ hits: 1, misses: 1 });
    } finally {
      await cache.close();
    }
  });

  it("gives a real model the run's seed unless its entry sets one; the simulator keeps its own", () => {
    const qwen = resolveModel(config, "qwen2.5:3b");
    expect(seededEntry(qwen, 7).options.seed).toBe(7);
    expect(seededEntry({ ...qwen, options: { seed: 2 } }, 7).options.seed).toBe(2);
    expect(seededEntry(resolveModel(config, "sim:oracle"), 7)).toEqual(resolveModel(config, "sim:oracle"));
  });

  it("refuses bad combinations with InputError", () => {
    expect(() => createProvider(resolveModel(config, "sim:oracle"))).toThrow(
      /the simulator answers from the dataset.s gold labels/,
    );
    expect(() => createProvider(resolveModel(config, "qwen2.5:3b"), { record: "a", replay: "b" })).toThrow(InputError);
    const remote = { ...resolveModel(config, "openai:gpt-4o-mini"), baseUrl: "https://api.example.com/v1" };
    expect(() => createProvider(remote)).toThrow(RemoteEndpointError);
  });

  it("wraps for record and replay under the same id", async () => {
    const dir = mkdtempSync(join(tmpdir(), "factory-"));
    const cassette = join(dir, "sim.jsonl");
    const entry = resolveModel(config, "sim:oracle");
    const recorder = createProvider(entry, { gold, record: cassette });
    expect(recorder).toBeInstanceOf(RecordingProvider);
    const recorded = await recorder.complete({ stage: "solver", prompt: "Question: Who am I on GitHub?\nAnswer:" });
    expect(readFileSync(cassette, "utf8")).toContain('"provider":"sim:oracle"');

    const replay = createProvider(entry, { replay: cassette });
    expect(replay).toBeInstanceOf(ReplayProvider);
    expect(replay.id).toBe("sim:oracle");
    expect(await replay.complete({ stage: "solver", prompt: "Question: Who am I on GitHub?\nAnswer:" })).toEqual(
      recorded,
    );

    const empty = join(dir, "empty.jsonl");
    writeFileSync(empty, "");
    await expect(createProvider(entry, { replay: empty }).complete({ stage: "solver", prompt: "x" })).rejects.toThrow(
      CassetteMissError,
    );
  });
});
