/**
 * The stand-in's realistic behaviours through the real clients — the `ollama` npm client and the official
 * `openai` npm client — which send no stage header, so every request here is also served without it.
 */

import { Ollama } from "ollama";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatRequest, ChatResponse, CompletionRequest, CompletionResponse } from "../../src/models/types.ts";
import { EchoModel } from "../../test/support/echo-model.ts";
import { OLLAMA_API_VERSION } from "./ollama-routes.ts";
import { QUEUE_FULL_MESSAGE } from "./scheduler.ts";
import { STANDIN_HEADER, type Standin, startStandin } from "./server.ts";
import { THINKING_TOKENS } from "./thinking.ts";

/** The echo model, remembering what it was given. */
class RecordingEcho extends EchoModel {
  readonly seen: (CompletionRequest | ChatRequest)[] = [];

  override async complete(request: CompletionRequest): Promise<CompletionResponse> {
    this.seen.push(request);
    return super.complete(request);
  }

  override async chat(request: ChatRequest): Promise<ChatResponse> {
    this.seen.push(request);
    return super.chat(request);
  }
}

const model = new RecordingEcho();
let standin: Standin;
let ollama: Ollama;
let openai: OpenAI;

beforeAll(async () => {
  standin = await startStandin({ provider: model, port: 0, real: true, behaviour: { defaultNumCtx: 256 } });
  ollama = new Ollama({ host: standin.url });
  openai = new OpenAI({ baseURL: `${standin.url}/v1`, apiKey: "not-checked", maxRetries: 0 });
});

afterAll(async () => {
  await standin.close();
});

const getMe = { type: "function" as const, function: { name: "get_me", description: "me", parameters: {} } };

describe("truncation at the window", () => {
  it("cuts a long prompt from the front to num_ctx: prompt_eval_count is the window, the model sees the tail", async () => {
    const prompt = `${"Tools:\nsome_tool() - a tool nobody will see\n".repeat(40)}Task: the question at the end`;
    const answer = await ollama.generate({ model: "qwen2.5:3b", prompt, stream: false, options: { num_ctx: 64 } });
    expect(answer.prompt_eval_count).toBe(64);
    expect(answer.done_reason).toBe("stop");
    expect(answer.response).toBe("echo: Task: the question at the end");
    const seen = model.seen.at(-1) as CompletionRequest;
    expect(seen.prompt).toBe(prompt.slice(-64 * 4));
  });

  it("drops the system prompt and the tool list first from a chat that does not fit", async () => {
    const system = { role: "system", content: "You follow these rules. ".repeat(60) };
    const user = { role: "user", content: 'call get_me with {"x":1}' };
    const answer = await ollama.chat({
      model: "qwen2.5:3b",
      messages: [system, user],
      tools: [getMe],
      stream: false,
      options: { num_ctx: 16 },
    });
    expect(answer.prompt_eval_count).toBe(16);
    // 64 characters hold the user message ("user: " + 25) but not the tool's JSON before it.
    const seen = model.seen.at(-1) as ChatRequest;
    expect(seen.tools).toBeUndefined();
    expect(seen.messages).toEqual([user]);
    // Without its tools the model cannot call one: it answers in text.
    expect(answer.message.tool_calls).toBeUndefined();
  });

  it("leaves a prompt that fits alone, and counts it at 4 characters a token", async () => {
    const answer = await ollama.generate({ model: "qwen2.5:3b", prompt: "x".repeat(41), stream: false });
    expect(answer.prompt_eval_count).toBe(11);
    expect((model.seen.at(-1) as CompletionRequest).prompt).toBe("x".repeat(41));
  });

  it("ignores num_ctx on the OpenAI-compatible API: the server's default window applies", async () => {
    const completion = await openai.chat.completions.create({
      model: "qwen2.5:3b",
      messages: [{ role: "user", content: `${"filler ".repeat(400)}\nlast line` }],
      // @ts-expect-error num_ctx is no OpenAI field; Ollama's /v1 ignores it
      num_ctx: 100_000,
    });
    expect(completion.usage?.prompt_tokens).toBe(256);
    expect(completion.choices[0]?.message.content).toBe("echo: last line");
  });
});

describe("output cut at the limit", () => {
  it("stops after num_predict tokens with done_reason length", async () => {
    const prompt = "one two three four five six seven eight nine ten";
    const answer = await ollama.generate({ model: "qwen2.5:3b", prompt, stream: false, options: { num_predict: 3 } });
    expect(answer).toMatchObject({ done_reason: "length", eval_count: 3, response: `echo: ${prompt}`.slice(0, 12) });
    const streamed = await ollama.generate({ model: "qwen2.5:3b", prompt, stream: true, options: { num_predict: 3 } });
    let text = "";
    let last: { done_reason?: string } = {};
    for await (const part of streamed) {
      text += part.response;
      last = part;
    }
    expect(text).toBe(`echo: ${prompt}`.slice(0, 12));
    expect(last.done_reason).toBe("length");
  });

  it("stops after max_tokens with finish_reason length", async () => {
    const completion = await openai.chat.completions.create({
      model: "qwen2.5:3b",
      max_tokens: 2,
      messages: [{ role: "user", content: "alpha beta gamma delta" }],
    });
    expect(completion.choices[0]).toMatchObject({ finish_reason: "length", message: { content: "echo: al" } });
    expect(completion.usage?.completion_tokens).toBe(2);
  });
});

describe("known models", () => {
  it("404s an unknown model in both APIs", async () => {
    await expect(ollama.generate({ model: "qwen2.5:3", prompt: "x" })).rejects.toMatchObject({
      status_code: 404,
      error: "model 'qwen2.5:3' not found, try pulling it first",
    });
    await expect(
      openai.chat.completions.create({ model: "mistral:7b", messages: [{ role: "user", content: "x" }] }),
    ).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(ollama.show({ model: "mistral:7b" })).rejects.toMatchObject({ status_code: 404 });
  });

  it("describes each model in /api/show and /api/tags", async () => {
    const show = await ollama.show({ model: "llama3.2:3b" });
    expect(show.details).toMatchObject({ family: "llama", parameter_size: "3.2B", quantization_level: "Q4_K_M" });
    expect(show.model_info).toMatchObject({ "general.architecture": "llama", "llama.context_length": 131_072 });
    expect(show.capabilities).toEqual(["completion", "tools"]);
    const { models } = await ollama.list();
    expect(models.map((entry) => entry.name)).toEqual([
      "qwen2.5:3b",
      "qwen2.5:7b",
      "llama3.2:3b",
      "gemma2:2b",
      "qwen3:4b",
    ]);
    expect(models.every((entry) => /^[0-9a-f]{64}$/.test(entry.digest))).toBe(true);
    const ids = (await openai.models.list()).data.map((entry) => entry.id);
    expect(ids).toContain("qwen3:4b");
    expect((await openai.models.retrieve("gemma2:2b")).id).toBe("gemma2:2b");
    await expect(openai.models.retrieve("gemma2:9b")).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it("answers 400 to a tools request on a model without the tools capability", async () => {
    expect((await ollama.show({ model: "gemma2:2b" })).capabilities).toEqual(["completion"]);
    await expect(
      ollama.chat({ model: "gemma2:2b", tools: [getMe], messages: [{ role: "user", content: "x" }] }),
    ).rejects.toMatchObject({ status_code: 400, error: "registry.ollama.ai/library/gemma2:2b does not support tools" });
    await expect(
      openai.chat.completions.create({
        model: "gemma2:2b",
        tools: [getMe],
        messages: [{ role: "user", content: "x" }],
      }),
    ).rejects.toBeInstanceOf(OpenAI.BadRequestError);
  });
});

describe("a conversation cut to no user message", () => {
  it("gets qwen3's 500 when truncation dropped the user's query", async () => {
    const messages = [
      { role: "user", content: "Find my issues, please. ".repeat(20) },
      { role: "assistant", content: "", tool_calls: [{ function: { name: "get_me", arguments: {} } }] },
      { role: "tool", content: '{"login":"me"}', tool_name: "get_me" },
    ];
    const options = { num_ctx: 64 };
    await expect(ollama.chat({ model: "qwen3:4b", messages, think: false, options })).rejects.toMatchObject({
      status_code: 500,
      error: "no user query found in messages",
    });
    // Other templates answer from what is left.
    expect((await ollama.chat({ model: "qwen2.5:3b", messages, options })).prompt_eval_count).toBeLessThanOrEqual(64);
  });
});

describe("thinking", () => {
  it("thinks when the request asks or leaves it to the model, not with think: false", async () => {
    const messages = [{ role: "user", content: "What is 2 + 2?" }];
    const asked = await ollama.chat({ model: "qwen3:4b", messages, think: true, stream: false });
    const left = await ollama.chat({ model: "qwen3:4b", messages, stream: false });
    const off = await ollama.chat({ model: "qwen3:4b", messages, think: false, stream: false });
    expect(asked.message.thinking?.length).toBeGreaterThan(0);
    expect(left.message.thinking).toBe(asked.message.thinking);
    expect(off.message.thinking).toBeUndefined();
    expect(off.message.content).toBe("echo: What is 2 + 2?");
    expect(asked.eval_count).toBe((off.eval_count ?? 0) + THINKING_TOKENS);
  });

  it("spends a small num_predict on thinking: the answer is cut to nothing", async () => {
    const answer = await ollama.generate({
      model: "qwen3:4b",
      prompt: "x",
      stream: false,
      options: { num_predict: 50 },
    });
    expect(answer).toMatchObject({ done_reason: "length", response: "", eval_count: 50 });
    expect(answer.thinking?.length).toBe(50 * 4);
  });

  it("refuses think: true on a model without thinking", async () => {
    await expect(
      ollama.chat({ model: "qwen2.5:3b", think: true, messages: [{ role: "user", content: "x" }] }),
    ).rejects.toMatchObject({ status_code: 400, error: '"qwen2.5:3b" does not support thinking' });
  });
});

describe("OpenAI streaming with tools", () => {
  it("works with the official client's chat.completions.stream() and create({stream: true})", async () => {
    const messages = [{ role: "user" as const, content: 'call get_me with {"verbose":true}' }];
    const stream = openai.chat.completions.stream({ model: "qwen2.5:3b", messages, tools: [getMe] });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.finish_reason).toBe("tool_calls");
    expect(final.choices[0]?.message.role).toBe("assistant");
    expect(final.choices[0]?.message.tool_calls).toEqual([
      {
        id: expect.stringMatching(/^call_[0-9a-f]{8}$/),
        type: "function",
        function: { name: "get_me", arguments: '{"verbose":true}' },
      },
    ]);
    const chunks = await openai.chat.completions.create({
      model: "qwen2.5:3b",
      messages,
      tools: [getMe],
      stream: true,
      stream_options: { include_usage: true },
    });
    const roles: string[] = [];
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of chunks) {
      const role = chunk.choices[0]?.delta.role;
      if (role) roles.push(role);
      usage = chunk.usage ?? usage;
    }
    expect(roles).toEqual(["assistant"]);
    expect(usage?.prompt_tokens).toBeGreaterThan(0);
  });

  it("streams a thinking model's reasoning apart from its content", async () => {
    const stream = openai.chat.completions.stream({
      model: "qwen3:4b",
      messages: [{ role: "user", content: "hello there" }],
    });
    let reasoning = "";
    stream.on("chunk", (chunk) => {
      reasoning += (chunk.choices[0]?.delta as { reasoning?: string } | undefined)?.reasoning ?? "";
    });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe("echo: hello there");
    expect(reasoning.length).toBe(THINKING_TOKENS * 4);
  });
});

describe("identification", () => {
  it("names itself in a header on every response and in /api/version", async () => {
    const version = await fetch(`${standin.url}/api/version`);
    expect(version.headers.get(STANDIN_HEADER)).toBe("echo:test");
    expect(await version.json()).toEqual({
      version: OLLAMA_API_VERSION,
      standin: { profile: "echo:test", real: true },
    });
    expect((await ollama.version()).version).toBe(OLLAMA_API_VERSION);
    const missing = await fetch(`${standin.url}/api/nothing`);
    expect([missing.status, missing.headers.get(STANDIN_HEADER)]).toEqual([404, "echo:test"]);
    const completion = await openai.chat.completions
      .create({ model: "qwen2.5:3b", messages: [{ role: "user", content: "x" }] })
      .withResponse();
    expect(completion.response.headers.get(STANDIN_HEADER)).toBe("echo:test");
  });
});

describe("scheduler", () => {
  it("reports a cold start as load_duration on the first request only; zero timings are left out", async () => {
    const cold = await startStandin({
      provider: new EchoModel(),
      port: 0,
      real: true,
      behaviour: { coldStartMs: 150 },
    });
    try {
      const client = new Ollama({ host: cold.url });
      const first = await client.generate({ model: "qwen2.5:3b", prompt: "a", stream: false });
      const second = await client.generate({ model: "qwen2.5:3b", prompt: "a", stream: false });
      expect(first.load_duration).toBeGreaterThanOrEqual(150e6);
      expect(first.total_duration).toBeGreaterThanOrEqual(first.load_duration);
      expect(second).not.toHaveProperty("load_duration");
      const other = await client.generate({ model: "qwen2.5:7b", prompt: "a", stream: false });
      expect(other.load_duration).toBeGreaterThanOrEqual(150e6);
      // Another window reloads the model, as in Ollama.
      const resized = await client.generate({
        model: "qwen2.5:7b",
        prompt: "a",
        stream: false,
        options: { num_ctx: 8192 },
      });
      expect(resized.load_duration).toBeGreaterThanOrEqual(150e6);
      // context_length is newer than the client's types.
      const running = (await client.ps()).models.map((entry) => [
        entry.name,
        (entry as { context_length?: number }).context_length,
      ]);
      expect(running.sort()).toEqual([
        ["qwen2.5:3b", 4096],
        ["qwen2.5:7b", 8192],
      ]);
      // An empty request with keep_alive 0 unloads the model; the next request loads it again.
      expect(await client.generate({ model: "qwen2.5:3b", prompt: "", keep_alive: 0 })).toMatchObject({
        done: true,
        done_reason: "unload",
      });
      expect((await client.ps()).models.map((entry) => entry.name)).toEqual(["qwen2.5:7b"]);
      const reloaded = await client.generate({ model: "qwen2.5:3b", prompt: "a", stream: false });
      expect(reloaded.load_duration).toBeGreaterThanOrEqual(150e6);
    } finally {
      await cold.close();
    }
  });

  it("answers 503 when more requests wait than --max-queue allows", async () => {
    const busy = await startStandin({
      provider: new EchoModel(),
      port: 0,
      real: true,
      behaviour: { coldStartMs: 200, maxQueue: 1 },
    });
    try {
      const client = new Ollama({ host: busy.url });
      const ask = () =>
        client.generate({ model: "qwen2.5:3b", prompt: "hi", stream: false }).then(
          (answer) => answer.done_reason,
          (error: { status_code: number; error: string }) => `${error.status_code} ${error.error}`,
        );
      // One generates (loading), one waits, the third finds the queue full — whichever arrives last.
      const outcomes = await Promise.all([ask(), ask(), ask()]);
      expect(outcomes.sort()).toEqual([`503 ${QUEUE_FULL_MESSAGE}`, "stop", "stop"]);
    } finally {
      await busy.close();
    }
  });
});
