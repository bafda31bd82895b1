import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RunRecorder } from "../../../src/agent/recorder.ts";
import {
  CachingProvider,
  isDeterministic,
  type ModelIdentity,
  requestHash,
} from "../../../src/models/caching-provider.ts";
import { RequestCache } from "../../../src/models/request-cache.ts";
import type {
  ChatRequest,
  CompletionRequest,
  CompletionResponse,
  ModelFacts,
  ModelProvider,
} from "../../../src/models/types.ts";

const identity: ModelIdentity = {
  name: "qwen",
  provider: "ollama",
  model: "qwen2.5:3b",
  baseUrls: ["http://127.0.0.1:11434"],
  options: {},
  settings: { think: false },
};

const completion: CompletionRequest = {
  stage: "planner",
  prompt: "Plan: list issues",
  options: { temperature: 0, maxTokens: 100, stop: ["\n\n"], seed: 3, numCtx: 4096 },
};

const chatRequest: ChatRequest = {
  stage: "native",
  messages: [{ role: "user", content: "list issues" }],
  tools: [{ name: "list_issues", description: "lists", parameters: { type: "object" } }],
  options: { temperature: 0 },
};

const caches: RequestCache[] = [];

function freshCache(): RequestCache {
  const cache = new RequestCache(mkdtempSync(join(tmpdir(), "onsetlab-cache-")));
  caches.push(cache);
  return cache;
}

afterEach(async () => {
  for (const cache of caches.splice(0)) await cache.close();
});

/** Counts the calls that reach it; answers after `delayMs` with fixed usage and timings. */
class CountingModel implements ModelProvider {
  readonly id = "ollama:qwen2.5:3b";
  calls = 0;
  constructor(
    private readonly delayMs = 0,
    private readonly digest = "d1",
  ) {}

  async describe(): Promise<ModelFacts> {
    return { digest: this.digest, contextSource: "test", numCtx: "auto" };
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    this.calls += 1;
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    return {
      text: `answer ${this.calls} to ${request.prompt}`,
      usage: { promptTokens: 40, completionTokens: 7 },
      timings: { totalMs: 1234, promptEvalMs: 300, evalMs: 900 },
    };
  }

  async chat(request: ChatRequest) {
    return { ...(await this.complete({ stage: request.stage, prompt: request.messages[0]!.content })), toolCalls: [] };
  }
}

describe("request keys", () => {
  const base = requestHash(identity, "d1", "complete", completion);

  it("change with every field of the request and every option sent to the server", () => {
    const variants: CompletionRequest[] = [
      { ...completion, prompt: "Plan: list issues." },
      { ...completion, options: { ...completion.options, temperature: 0.5 } },
      { ...completion, options: { ...completion.options, seed: 4 } },
      { ...completion, options: { ...completion.options, maxTokens: 101 } },
      { ...completion, options: { ...completion.options, stop: ["\n"] } },
      { ...completion, options: { ...completion.options, numCtx: 8192 } },
      { ...completion, options: { ...completion.options, numCtx: undefined } },
    ];
    const hashes = variants.map((variant) => requestHash(identity, "d1", "complete", variant));
    expect(new Set([base, ...hashes]).size).toBe(variants.length + 1);
    const chatBase = requestHash(identity, "d1", "chat", chatRequest);
    const chatVariants: ChatRequest[] = [
      { ...chatRequest, messages: [{ role: "user", content: "list issue" }] },
      { ...chatRequest, messages: [{ role: "system", content: "list issues" }] },
      { ...chatRequest, tools: [] },
      { ...chatRequest, tools: [{ ...chatRequest.tools![0]!, description: "lists all" }] },
    ];
    const chatHashes = chatVariants.map((variant) => requestHash(identity, "d1", "chat", variant));
    expect(new Set([base, chatBase, ...chatHashes]).size).toBe(chatVariants.length + 2);
  });

  it("change with the model: digest, name, provider, model, base URLs, entry options and settings", () => {
    const models: [ModelIdentity, string | undefined][] = [
      [identity, "d2"],
      [identity, undefined],
      [{ ...identity, name: "qwen-b" }, "d1"],
      [{ ...identity, provider: "openai" }, "d1"],
      [{ ...identity, model: "qwen2.5:7b" }, "d1"],
      [{ ...identity, baseUrls: ["http://127.0.0.1:11435"] }, "d1"],
      [{ ...identity, settings: { think: true } }, "d1"],
    ];
    const hashes = models.map(([model, digest]) => requestHash(model, digest, "complete", completion));
    expect(new Set([base, ...hashes]).size).toBe(models.length + 1);
    // the entry's options reach the server where the request sets none
    const plain = { ...completion, options: { temperature: 0 } };
    expect(requestHash({ ...identity, options: { maxTokens: 50 } }, "d1", "complete", plain)).not.toBe(
      requestHash({ ...identity, options: { maxTokens: 60 } }, "d1", "complete", plain),
    );
  });

  it("do not change with the stage, keep-alive, or the order of base URLs and object keys", () => {
    const reordered = {
      ...completion,
      stage: "solver" as const,
      options: { numCtx: 4096, seed: 3, stop: ["\n\n"], maxTokens: 100, temperature: 0, keepAlive: "5m" },
    };
    expect(requestHash(identity, "d1", "complete", reordered)).toBe(base);
    const pooled = { ...identity, baseUrls: ["http://b:1", "http://a:1"] };
    expect(requestHash(pooled, "d1", "complete", completion)).toBe(
      requestHash({ ...pooled, baseUrls: ["http://a:1", "http://b:1"] }, "d1", "complete", completion),
    );
  });

  it("are used for deterministic requests only: temperature 0, or a fixed seed", () => {
    expect(isDeterministic({}, { temperature: 0 })).toBe(true);
    expect(isDeterministic({ seed: 1 }, { temperature: 0.7 })).toBe(true);
    expect(isDeterministic({ temperature: 0 }, undefined)).toBe(true);
    expect(isDeterministic({}, { temperature: 0.1 })).toBe(false);
    expect(isDeterministic({}, undefined)).toBe(false);
  });
});

describe("CachingProvider", () => {
  it("answers a repeated request from the store; the record is marked cached and keeps the original timings", async () => {
    const inner = new CountingModel(40);
    const provider = new CachingProvider(inner, identity, freshCache());
    const recorder = new RunRecorder(provider, new AbortController().signal, () => "stop");
    await recorder.complete("planner", completion);
    await recorder.complete("planner", completion);
    expect(inner.calls).toBe(1);
    const [first, second] = recorder.modelCalls;
    expect(first!.cached).toBeUndefined();
    expect(second!.cached).toBe(true);
    expect(second!.output).toBe(first!.output);
    expect(second!.usage).toEqual(first!.usage);
    expect(second!.timings).toEqual({ totalMs: 1234, promptEvalMs: 300, evalMs: 900 });
    // the original call's wall time (≥ its 40 ms delay), not the lookup's
    expect(second!.durationMs).toBeGreaterThanOrEqual(39);
    expect(second!.durationMs).toBeLessThanOrEqual(first!.durationMs);
  });

  it("sends identical requests in flight once", async () => {
    const inner = new CountingModel(30);
    const cache = freshCache();
    const provider = new CachingProvider(inner, identity, cache);
    const answers = await Promise.all([1, 2, 3].map(() => provider.complete(completion)));
    expect(inner.calls).toBe(1);
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
    expect(cache.counters).toEqual({ hits: 0, misses: 1, coalesced: 2, damaged: 0 });
  });

  it("sends every request that is not deterministic", async () => {
    const inner = new CountingModel();
    const provider = new CachingProvider(inner, identity, freshCache());
    const warm = { ...completion, options: { temperature: 0.1 } };
    await provider.complete(warm);
    await provider.complete(warm);
    expect(inner.calls).toBe(2);
  });

  it("misses when the server reports another digest for the model", async () => {
    const cache = freshCache();
    await new CachingProvider(new CountingModel(0, "d1"), identity, cache).complete(completion);
    const retrained = new CountingModel(0, "d2");
    await new CachingProvider(retrained, identity, cache).complete(completion);
    expect(retrained.calls).toBe(1);
  });
});

describe("RequestCache", () => {
  it("clear --model removes only that model's answers", async () => {
    const cache = freshCache();
    await new CachingProvider(new CountingModel(), identity, cache).complete(completion);
    const other = { ...identity, name: "llama" };
    await new CachingProvider(new CountingModel(), other, cache).complete(completion);
    await new CachingProvider(new CountingModel(), other, cache).chat(chatRequest);
    expect(cache.stats().models).toEqual({ qwen: 1, llama: 2 });
    expect(await cache.clear("llama")).toBe(2);
    expect(cache.stats()).toMatchObject({ entries: 1, models: { qwen: 1 } });
    const again = new CountingModel();
    await new CachingProvider(again, identity, cache).complete(completion);
    expect(again.calls).toBe(0);
  });
});
