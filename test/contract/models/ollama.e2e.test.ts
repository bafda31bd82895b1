/** The `ollama` provider through the real `ollama` client against the stand-in server. */

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Standin, startStandin } from "../../../mock-servers/ollama/server.ts";
import {
  ModelAbortedError,
  ModelNotFoundError,
  ModelTimeoutError,
  ProviderHttpError,
  ProviderUnreachableError,
  ToolsUnsupportedError,
} from "../../../src/models/errors.ts";
import { OllamaProvider } from "../../../src/models/ollama.ts";
import { ScriptedModel } from "../../../src/models/scripted.ts";
import type { ChatTool } from "../../../src/models/types.ts";
import { EchoModel } from "../../support/echo-model.ts";

const tools: ChatTool[] = [{ name: "get_me", description: "me", parameters: { type: "object", properties: {} } }];
const callGetMe = [{ role: "user" as const, content: 'call get_me with {"verbose":true}' }];

let standin: Standin;
let restricted: Standin;
let slow: Standin;

beforeAll(async () => {
  standin = await startStandin({ provider: new EchoModel(), port: 0 });
  restricted = await startStandin({
    provider: new EchoModel(),
    port: 0,
    models: [{ name: "qwen2.5:3b" }, { name: "gemma2:2b", tools: false }],
  });
  slow = await startStandin({ provider: new EchoModel(), port: 0, pace: 2 });
});

afterAll(async () => {
  await Promise.all([standin.close(), restricted.close(), slow.close()]);
});

describe("OllamaProvider", () => {
  it("takes its host from OLLAMA_HOST when the entry has none", async () => {
    const saved = process.env.OLLAMA_HOST;
    process.env.OLLAMA_HOST = standin.url;
    try {
      const provider = new OllamaProvider({ model: "qwen2.5:3b" });
      expect(provider.host).toBe(standin.url);
      expect((await provider.complete({ stage: "solver", prompt: "hi" })).text).toBe("echo: hi");
    } finally {
      if (saved === undefined) delete process.env.OLLAMA_HOST;
      else process.env.OLLAMA_HOST = saved;
    }
  });

  it("sends the entry's options under the request's own, with keep_alive, and the stage", async () => {
    const scripted = new ScriptedModel({ planner: ["#E1 = get_me()"] });
    const server = await startStandin({ provider: scripted, port: 0 });
    try {
      const provider = new OllamaProvider({
        model: "qwen2.5:3b",
        host: server.url,
        options: { numCtx: 8192, keepAlive: "10m", temperature: 0.7 },
      });
      await provider.complete({
        stage: "planner",
        prompt: "Task: x",
        options: { temperature: 0, maxTokens: 150, stop: ["\n\n"], seed: 1 },
      });
      expect(scripted.requests[0]).toMatchObject({
        stage: "planner",
        prompt: "Task: x",
        options: { temperature: 0, maxTokens: 150, stop: ["\n\n"], seed: 1, numCtx: 8192, keepAlive: "10m" },
      });
    } finally {
      await server.close();
    }
  });

  it("reads /api/version, /api/show and /api/tags once per provider, before its first call", async () => {
    const provider = new OllamaProvider({ model: "qwen2.5:3b", host: restricted.url });
    const before = restricted.requests();
    const first = await provider.chat({ stage: "native", messages: callGetMe, tools });
    await provider.chat({ stage: "native", messages: callGetMe, tools });
    await provider.chat({ stage: "jsonl", messages: [{ role: "user", content: "no tools" }] });
    expect(restricted.requests() - before).toBe(6); // version + show + tags + three chats
    expect(first.toolCalls).toEqual([
      { id: expect.stringMatching(/^call_/), name: "get_me", arguments: { verbose: true } },
    ]);
  });

  it("refuses a native-tools run on a model without the tools capability, before any chat", async () => {
    const provider = new OllamaProvider({ model: "gemma2:2b", host: restricted.url });
    const before = restricted.requests();
    const failure = await provider
      .chat({ stage: "native", messages: callGetMe, tools })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ToolsUnsupportedError);
    expect((failure as Error).message).toMatch(
      /model "gemma2:2b" on Ollama at http:\/\/127\.0\.0\.1:\d+ does not support tools \(capabilities: completion\)/,
    );
    expect(restricted.requests() - before).toBe(3); // version + show + tags, no chat
    // Plain generation still works.
    expect((await provider.complete({ stage: "solver", prompt: "x" })).text).toBe("echo: x");
  });

  it("says `ollama pull <model>` for a model the server does not have", async () => {
    const provider = new OllamaProvider({ model: "mistral:7b", host: restricted.url });
    const failure = await provider.complete({ stage: "planner", prompt: "x" }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelNotFoundError);
    expect((failure as Error).message).toBe(
      `model "mistral:7b" not found on Ollama at ${restricted.url}: run \`ollama pull mistral:7b\``,
    );
    await expect(provider.chat({ stage: "native", messages: callGetMe, tools })).rejects.toThrow(ModelNotFoundError);
  });

  it("names the close models the server has for a mistyped one (its /api/tags), then `ollama pull`", async () => {
    const failure = await new OllamaProvider({ model: "qwen2.5:3bb", host: restricted.url })
      .complete({ stage: "planner", prompt: "x" })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelNotFoundError);
    expect((failure as Error).message).toBe(
      `model "qwen2.5:3bb" not found on Ollama at ${restricted.url}: it has "qwen2.5:3b": pick one (--model), ` +
        "or run `ollama pull qwen2.5:3bb`",
    );
    expect((failure as ModelNotFoundError).context).toMatchObject({ close: ["qwen2.5:3b"] });
  });

  it("says how to start Ollama when nothing listens at the host", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const provider = new OllamaProvider({ model: "qwen2.5:3b", host: `http://127.0.0.1:${port}` });
    const failure = await provider.complete({ stage: "planner", prompt: "x" }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderUnreachableError);
    expect((failure as Error).message).toMatch(
      /cannot reach Ollama at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED: connection refused\): start it with `ollama serve`, or point OLLAMA_HOST/,
    );
  });

  it("reports a server error with its status and message", async () => {
    const server = await startStandin({
      provider: new ScriptedModel({ planner: [{ error: new Error("out of memory") }] }),
      port: 0,
    });
    try {
      const failure = await new OllamaProvider({ model: "m", host: server.url })
        .complete({ stage: "planner", prompt: "x" })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ProviderHttpError);
      expect(failure).toMatchObject({ status: 500, message: `Ollama at ${server.url} answered 500: out of memory` });
    } finally {
      await server.close();
    }
  });

  it("times out non-streamed and streamed calls, and stops on the caller's abort", async () => {
    const provider = new OllamaProvider({ model: "m", host: slow.url, timeoutMs: 150 });
    await expect(provider.complete({ stage: "solver", prompt: "slow answer please" })).rejects.toThrow(
      ModelTimeoutError,
    );
    await expect(
      provider.chat({
        stage: "jsonl",
        messages: [{ role: "user", content: "slow" }],
        onText: () => {},
        timeoutMs: 100,
      }),
    ).rejects.toThrow(/no answer from Ollama at .* within 100 ms/);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stop")), 50);
    const aborted = new OllamaProvider({ model: "m", host: slow.url }).complete({
      stage: "solver",
      prompt: "x",
      signal: controller.signal,
    });
    await expect(aborted).rejects.toThrow(ModelAbortedError);
  });

  it("streams text pieces through onText and returns the whole answer with usage and timings", async () => {
    const provider = new OllamaProvider({ model: "m", host: standin.url });
    const pieces: string[] = [];
    const response = await provider.complete({
      stage: "solver",
      prompt: "one two three",
      onText: (piece) => pieces.push(piece),
    });
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join("")).toBe(response.text);
    expect(response.text).toBe("echo: one two three");
    expect(response.usage).toEqual({ promptTokens: 3, completionTokens: 4 });
    expect(response.timings).toMatchObject({
      totalMs: expect.any(Number),
      promptEvalMs: expect.any(Number),
      evalMs: expect.any(Number),
    });
  });
});
