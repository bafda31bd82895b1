/** The stand-in's wire formats, checked with raw HTTP (the providers' own tests use the real clients). */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STAGE_HEADER } from "../../src/models/http.ts";
import { EchoModel } from "../../test/support/echo-model.ts";
import { type Standin, startStandin } from "./server.ts";

const model = new EchoModel();
let standin: Standin;
let restricted: Standin;

beforeAll(async () => {
  standin = await startStandin({ provider: model, port: 0 });
  restricted = await startStandin({
    provider: model,
    port: 0,
    models: [{ name: "qwen2.5:3b" }, { name: "gemma2:2b", tools: false }],
  });
});

afterAll(async () => {
  await standin.close();
  await restricted.close();
});

const tools = [{ type: "function", function: { name: "get_me", description: "me", parameters: { type: "object" } } }];

async function post(base: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() };
}

describe("Ollama REST API", () => {
  it("answers /, /api/version, /api/tags, /api/show with capabilities, /api/ps", async () => {
    expect(await (await fetch(`${standin.url}/`)).text()).toBe("Ollama is running");
    expect(await (await fetch(`${standin.url}/api/version`)).json()).toEqual({
      version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      standin: { profile: "echo:test", real: false },
    });
    const show = await post(standin.url, "/api/show", { model: "anything:7b" });
    expect(JSON.parse(show.text)).toMatchObject({
      capabilities: ["completion", "tools"],
      details: { family: "standin" },
    });
    await post(standin.url, "/api/generate", { model: "llama3.2:3b", prompt: "hi", stream: false });
    const ps = (await (await fetch(`${standin.url}/api/ps`)).json()) as {
      models: { name: string; expires_at: string }[];
    };
    expect(ps.models.map((entry) => entry.name)).toContain("llama3.2:3b");
    const tags = (await (await fetch(`${restricted.url}/api/tags`)).json()) as { models: { name: string }[] };
    expect(tags.models.map((entry) => entry.name)).toEqual(["qwen2.5:3b", "gemma2:2b"]);
  });

  it("streams /api/generate as NDJSON by default, ending with a done chunk carrying nanosecond durations", async () => {
    const { type, text } = await post(standin.url, "/api/generate", { model: "m", prompt: "alpha beta gamma" });
    expect(type).toBe("application/x-ndjson");
    const chunks = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(
      chunks
        .slice(0, -1)
        .map((chunk) => chunk.response)
        .join(""),
    ).toBe("echo: alpha beta gamma");
    expect(chunks.slice(0, -1).every((chunk) => chunk.done === false)).toBe(true);
    expect(chunks.at(-1)).toMatchObject({
      done: true,
      done_reason: "stop",
      response: "",
      prompt_eval_count: 3,
      eval_count: 4,
      total_duration: expect.any(Number),
      eval_duration: expect.any(Number),
    });
  });

  it("answers /api/chat with tool calls whose arguments are an object", async () => {
    const body = {
      model: "m",
      stream: false,
      tools,
      messages: [{ role: "user", content: 'call get_me with {"x":1}' }],
    };
    const answer = JSON.parse((await post(standin.url, "/api/chat", body)).text);
    expect(answer).toMatchObject({
      done: true,
      message: {
        role: "assistant",
        content: "",
        tool_calls: [
          {
            id: expect.stringMatching(/^call_[0-9a-f]{8}$/),
            function: { index: 0, name: "get_me", arguments: { x: 1 } },
          },
        ],
      },
    });
  });

  it("passes the stage header to the provider, else infers the stage from the request", async () => {
    model.stages.length = 0;
    await post(standin.url, "/api/generate", { model: "m", prompt: "p", stream: false }, { [STAGE_HEADER]: "solver" });
    await post(standin.url, "/api/generate", { model: "m", prompt: "p", stream: false });
    await post(standin.url, "/api/chat", { model: "m", stream: false, messages: [{ role: "user", content: "x" }] });
    await post(standin.url, "/api/chat", {
      model: "m",
      stream: false,
      tools,
      messages: [{ role: "user", content: "x" }],
    });
    expect(model.stages).toEqual(["solver", "solver", "solver", "native"]);
  });

  it("loads without generating on an empty prompt, like Ollama", async () => {
    const answer = JSON.parse((await post(standin.url, "/api/generate", { model: "m" })).text);
    expect(answer).toMatchObject({ done: true, done_reason: "load", response: "" });
  });

  it("uses Ollama's error shapes and status codes", async () => {
    const missing = await post(restricted.url, "/api/chat", {
      model: "mistral:7b",
      messages: [{ role: "user", content: "x" }],
    });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text)).toEqual({ error: "model 'mistral:7b' not found, try pulling it first" });
    const noTools = await post(restricted.url, "/api/chat", {
      model: "gemma2:2b",
      tools,
      messages: [{ role: "user", content: "x" }],
    });
    expect(noTools.status).toBe(400);
    expect(JSON.parse(noTools.text).error).toMatch(/gemma2:2b does not support tools/);
    const noModel = await post(standin.url, "/api/generate", { prompt: "x" });
    expect([noModel.status, JSON.parse(noModel.text)]).toEqual([400, { error: "model is required" }]);
    const badJson = await fetch(`${standin.url}/api/chat`, { method: "POST", body: "{not json" });
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toEqual({ error: expect.stringMatching(/^invalid JSON/) });
    expect((await fetch(`${standin.url}/api/nothing`)).status).toBe(404);
    expect((await fetch(`${standin.url}/api/chat`)).status).toBe(405);
  });
});

describe("OpenAI-compatible API", () => {
  it("answers tool calls with arguments as a JSON string and finish_reason tool_calls", async () => {
    const body = { model: "m", tools, messages: [{ role: "user", content: 'call get_me with {"x":1}' }] };
    const answer = JSON.parse((await post(standin.url, "/v1/chat/completions", body)).text);
    expect(answer).toMatchObject({
      object: "chat.completion",
      choices: [
        {
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            tool_calls: [{ type: "function", function: { name: "get_me", arguments: '{"x":1}' } }],
          },
        },
      ],
      usage: { prompt_tokens: 4, completion_tokens: expect.any(Number), total_tokens: expect.any(Number) },
    });
  });

  it("streams SSE chunks, tool-call fragments keyed by index, usage on request, then [DONE]", async () => {
    const body = {
      model: "m",
      stream: true,
      stream_options: { include_usage: true },
      tools,
      messages: [{ role: "user", content: 'call get_me with {"x":1}' }],
    };
    const { type, text } = await post(standin.url, "/v1/chat/completions", body);
    expect(type).toBe("text/event-stream");
    const events = text.split("\n\n").filter(Boolean);
    expect(events.at(-1)).toBe("data: [DONE]");
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.replace(/^data: /, "")));
    const fragments = chunks.flatMap((chunk) => chunk.choices[0]?.delta?.tool_calls ?? []);
    expect(fragments.length).toBeGreaterThan(1);
    expect(fragments.every((fragment: { index: number }) => fragment.index === 0)).toBe(true);
    expect(
      fragments.map((fragment: { function: { arguments?: string } }) => fragment.function.arguments).join(""),
    ).toBe('{"x":1}');
    expect(chunks.find((chunk) => chunk.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe("tool_calls");
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 4 } });
  });

  it("answers /v1/completions and lists /v1/models", async () => {
    const answer = JSON.parse((await post(standin.url, "/v1/completions", { model: "m", prompt: "one two" })).text);
    expect(answer).toMatchObject({
      object: "text_completion",
      choices: [{ text: "echo: one two", finish_reason: "stop" }],
    });
    const list = (await (await fetch(`${restricted.url}/v1/models`)).json()) as {
      object: string;
      data: { id: string }[];
    };
    expect(list.object).toBe("list");
    expect(list.data.map((entry) => entry.id)).toEqual(["qwen2.5:3b", "gemma2:2b"]);
  });

  it("refuses tool call arguments that are not a JSON object, as Ollama does (a string on /api/chat too)", async () => {
    const call = (args: unknown) => ({ id: "c1", type: "function", function: { name: "get_me", arguments: args } });
    const turns = (args: unknown) => [
      { role: "user", content: "x" },
      { role: "assistant", content: "", tool_calls: [call(args)] },
      { role: "tool", tool_call_id: "c1", content: "{}" },
    ];
    const bad = await post(standin.url, "/v1/chat/completions", { model: "m", messages: turns("{owner: acme}") });
    expect([bad.status, JSON.parse(bad.text).error.message]).toEqual([400, "invalid tool call arguments"]);
    const good = await post(standin.url, "/v1/chat/completions", { model: "m", messages: turns('{"owner":"acme"}') });
    expect(good.status).toBe(200);
    const asString = await post(standin.url, "/api/chat", { model: "m", stream: false, messages: turns("{}") });
    expect(asString.status).toBe(400);
    expect(JSON.parse(asString.text).error).toMatch(
      /^invalid request: messages\.1\.tool_calls\.0\.function\.arguments: /,
    );
  });

  it("uses OpenAI's error shape", async () => {
    const missing = await post(restricted.url, "/v1/chat/completions", {
      model: "nope",
      messages: [{ role: "user", content: "x" }],
    });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text)).toEqual({
      error: {
        message: "model 'nope' not found, try pulling it first",
        type: "not_found_error",
        param: null,
        code: null,
      },
    });
  });
});

describe("pace", () => {
  it("holds the answer back to the pace and reports durations consistent with it", async () => {
    const paced = await startStandin({ provider: model, port: 0, pace: 100 });
    try {
      const started = performance.now();
      const answer = JSON.parse(
        (await post(paced.url, "/api/generate", { model: "m", prompt: `${"w ".repeat(99)}\nend`, stream: false })).text,
      );
      const wallMs = performance.now() - started;
      // "echo: end" is 2 words → 2 tokens at 100 tokens/s = 20 ms; 100 prompt tokens at 1000/s = 100 ms.
      expect(answer.eval_count).toBe(2);
      expect(answer.eval_duration).toBe(20_000_000);
      expect(answer.prompt_eval_duration).toBe(100_000_000);
      expect(answer.total_duration).toBeGreaterThanOrEqual(120_000_000);
      expect(wallMs).toBeGreaterThanOrEqual(119);
    } finally {
      await paced.close();
    }
  });
});
