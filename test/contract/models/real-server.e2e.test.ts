/**
 * The `ollama` and `openai` providers against the stand-in in real mode (a stock Ollama's behaviours):
 * every way a real server can corrupt a measurement comes out flagged or typed, never silently scored.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Standin, startStandin } from "../../../mock-servers/ollama/server.ts";
import {
  failureInvalid,
  ModelNotFoundError,
  ProviderHttpError,
  ToolsUnsupportedError,
} from "../../../src/models/errors.ts";
import { OllamaProvider } from "../../../src/models/ollama.ts";
import { OpenAIProvider } from "../../../src/models/openai.ts";
import type { ChatTool } from "../../../src/models/types.ts";
import { EchoModel } from "../../support/echo-model.ts";

const tools: ChatTool[] = [{ name: "get_me", description: "the user", parameters: { type: "object", properties: {} } }];
/** ~60k characters of tool-list-like text before the question: ~15k tokens by the stand-in's count. */
const longPrompt = `${'{"tool":"list_issues","params":{"owner":"string"}}\n'.repeat(1200)}Which tool lists issues?`;

let real: Standin;

beforeAll(async () => {
  real = await startStandin({ provider: new EchoModel(), port: 0, real: true });
});

afterAll(async () => {
  await real.close();
});

const ollama = (model: string, extra: Partial<ConstructorParameters<typeof OllamaProvider>[0]> = {}) =>
  new OllamaProvider({ model, host: real.url, ...extra });
const openai = (model: string, extra: Partial<ConstructorParameters<typeof OpenAIProvider>[0]> = {}) =>
  new OpenAIProvider({ model, baseUrl: `${real.url}/v1`, ...extra });

describe("the ollama provider against a real-mode server", () => {
  it("reads the model's facts: window, capabilities, build, and that the server is the stand-in", async () => {
    const facts = await ollama("qwen2.5:3b").describe();
    expect(facts).toMatchObject({
      serverVersion: expect.any(String),
      standin: { profile: "echo:test", real: true },
      family: "qwen2",
      parameterSize: "3.1B",
      quantization: "Q4_K_M",
      contextLength: 32768,
      contextSource: "/api/show",
      numCtx: "auto",
      capabilities: expect.arrayContaining(["completion", "tools"]),
    });
  });

  it("flags a prompt cut to a set window (200, prompt_eval_count = the window) as context_overflow", async () => {
    const response = await ollama("qwen2.5:3b", { options: { numCtx: 4096 } }).complete({
      stage: "planner",
      prompt: longPrompt,
      options: { maxTokens: 150 },
    });
    expect(response.usage.promptTokens).toBe(4096);
    expect(response.context).toMatchObject({ window: 4096, windowSource: "set" });
    expect(response.invalid).toBe("context_overflow");
  });

  it("sizes an auto window that fits the prompt and the output cap: nothing cut, nothing flagged", async () => {
    const response = await ollama("qwen2.5:3b").complete({
      stage: "planner",
      prompt: longPrompt,
      options: { maxTokens: 150 },
    });
    const window = response.context!.window!;
    expect(window % 2048).toBe(0);
    expect(window).toBeGreaterThan(response.usage.promptTokens + 150);
    expect(window).toBeLessThanOrEqual(32768);
    expect(response.invalid).toBeUndefined();
    expect(response.text).toBe("echo: Which tool lists issues?");
  });

  it("flags the prompt when even the model's largest window is too small for it", async () => {
    const response = await ollama("gemma2:2b").complete({ stage: "planner", prompt: longPrompt });
    expect(response.context).toMatchObject({ window: 8192, windowSource: "auto", maxWindow: 8192 });
    expect(response.invalid).toBe("context_overflow");
  });

  it("flags an output cut at num_predict (done_reason length) as output_truncated", async () => {
    const response = await ollama("qwen2.5:3b").complete({
      stage: "solver",
      prompt: "say a fairly long sentence back to me please",
      options: { maxTokens: 2 },
    });
    expect(response.doneReason).toBe("length");
    expect(response.invalid).toBe("output_truncated");
    expect(response.usage.completionTokens).toBe(2);
  });

  it("says `ollama pull` for a model the server does not have", async () => {
    const failure = await ollama("qwen2.5:3bb")
      .complete({ stage: "solver", prompt: "x" })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelNotFoundError);
    expect((failure as Error).message).toContain("run `ollama pull qwen2.5:3bb`");
  });

  it("refuses tools on a model without the tools capability before sending them", async () => {
    const provider = ollama("gemma2:2b");
    const failure = await provider
      .chat({ stage: "native", messages: [{ role: "user", content: "call get_me with {}" }], tools })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ToolsUnsupportedError);
    expect((failure as Error).message).toMatch(/does not support tools \(capabilities: completion\)/);
  });

  it("keeps a thinking model from thinking in stage calls unless the entry says think: true", async () => {
    const prompt = { stage: "solver" as const, prompt: "what is two plus two" };
    const quiet = await ollama("qwen3:4b").complete(prompt);
    expect(quiet.thinking).toBeUndefined();
    const thinking = await ollama("qwen3:4b", { think: true }).complete(prompt);
    expect(thinking.thinking).toEqual(expect.any(String));
    // the reasoning is kept apart from the answer
    expect(thinking.text).toBe(quiet.text);
    expect(await ollama("qwen3:4b", { think: true }).describe()).toMatchObject({ think: true });
  });

  it("streams tool calls", async () => {
    const pieces: string[] = [];
    const response = await ollama("qwen2.5:3b").chat({
      stage: "native",
      messages: [{ role: "user", content: 'call get_me with {"verbose":true}' }],
      tools,
      onText: (piece) => pieces.push(piece),
    });
    expect(response.toolCalls).toMatchObject([{ name: "get_me", arguments: { verbose: true } }]);
    expect(response.invalid).toBeUndefined();
  });
});

describe("the ollama provider and a cold, busy server", () => {
  it("reports the model load of the warm-up apart, and none after it", async () => {
    const cold = await startStandin({
      provider: new EchoModel(),
      port: 0,
      real: true,
      behaviour: { coldStartMs: 300 },
    });
    try {
      const provider = new OllamaProvider({ model: "qwen2.5:3b", host: cold.url });
      const warm = await provider.warmUp();
      expect(warm.loadMs).toBeGreaterThanOrEqual(250);
      const next = await provider.complete({ stage: "solver", prompt: "hello" });
      expect(next.timings.loadMs ?? 0).toBeLessThan(50);
    } finally {
      await cold.close();
    }
  });

  it("retries a 503 (queue full) with backoff, and without retries left it is a server error", async () => {
    const busy = await startStandin({
      provider: new EchoModel(),
      port: 0,
      real: true,
      pace: 40,
      behaviour: { maxQueue: 0, parallel: 1 },
    });
    try {
      const patient = new OllamaProvider({ model: "qwen2.5:3b", host: busy.url, retry: { delaysMs: [200, 400, 800] } });
      await patient.describe();
      const both = await Promise.all([
        patient.complete({ stage: "solver", prompt: "one two three four" }),
        patient.complete({ stage: "solver", prompt: "five six seven eight" }),
      ]);
      expect(both.map((response) => response.text)).toEqual(["echo: one two three four", "echo: five six seven eight"]);

      const hasty = new OllamaProvider({ model: "qwen2.5:3b", host: busy.url, retry: { delaysMs: [] } });
      await hasty.describe();
      const outcomes = await Promise.allSettled([
        hasty.complete({ stage: "solver", prompt: "one two three four" }),
        hasty.complete({ stage: "solver", prompt: "five six seven eight" }),
      ]);
      const failure = outcomes.find((outcome) => outcome.status === "rejected") as PromiseRejectedResult;
      expect(failure.reason).toBeInstanceOf(ProviderHttpError);
      expect(failure.reason).toMatchObject({ status: 503 });
      expect(failureInvalid(failure.reason)).toBe("server_error");
    } finally {
      await busy.close();
    }
  });
});

describe("the openai provider against a real-mode server", () => {
  it("knows the window cannot be set: a prompt cut at the server's own window is context_overflow", async () => {
    const provider = openai("qwen2.5:3b");
    const facts = await provider.describe();
    expect(facts).toMatchObject({ numCtx: "server", standin: { profile: "echo:test" } });
    const response = await provider.chat({ stage: "jsonl", messages: [{ role: "user", content: longPrompt }] });
    expect(response.usage.promptTokens).toBe(4096);
    expect(response.context).toMatchObject({ window: 4096, windowSource: "server" });
    expect(response.invalid).toBe("context_overflow");
  });

  it("takes the window from context_window in models.yaml when given", async () => {
    const facts = await openai("qwen2.5:3b", { contextWindow: 8192 }).describe();
    expect(facts).toMatchObject({ contextLength: 8192, contextSource: "context_window in models.yaml" });
  });

  it("flags finish_reason length as output_truncated", async () => {
    const response = await openai("qwen2.5:3b").chat({
      stage: "solver",
      messages: [{ role: "user", content: "say a fairly long sentence back to me please" }],
      options: { maxTokens: 2 },
    });
    expect(response.doneReason).toBe("length");
    expect(response.invalid).toBe("output_truncated");
  });

  it("streams tool calls, and a model the server does not have is ModelNotFoundError", async () => {
    const response = await openai("qwen2.5:3b").chat({
      stage: "native",
      messages: [{ role: "user", content: 'call get_me with {"verbose":true}' }],
      tools,
      onText: () => {},
    });
    expect(response.toolCalls).toMatchObject([{ name: "get_me", arguments: { verbose: true } }]);
    expect(response.invalid).toBeUndefined();
    await expect(
      openai("nope:1b").chat({ stage: "solver", messages: [{ role: "user", content: "x" }] }),
    ).rejects.toThrow(ModelNotFoundError);
  });
});
