/**
 * The tokenizer client against a scripted HTTP server on 127.0.0.1: which flavour a probe finds, that a
 * server without one (404/405) is asked once and never again, and what each flavour is sent.
 */

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ServerTokenizer, type TokenizerProbes } from "./tokenizer.ts";

interface Seen {
  path: string;
  body: Record<string, unknown>;
}

type Answer = { status: number; body: unknown };

/** A server answering each path by `answer`; every request it got is in `seen`. */
async function scripted(answer: (seen: Seen) => Answer): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk) => {
      text += chunk;
    });
    request.on("end", () => {
      const one = { path: request.url ?? "", body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
      seen.push(one);
      const { status, body } = answer(one);
      response.writeHead(status, { "content-type": "application/json" });
      response.end(typeof body === "string" ? body : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function tokenizerOn(answer: (seen: Seen) => Answer, probes: TokenizerProbes = new Map()) {
  const served = await scripted(answer);
  servers.push(served.server);
  const make = (model = "qwen") =>
    new ServerTokenizer({ baseUrl: `${served.url}/v1`, model, headers: () => ({ authorization: "Bearer k" }), probes });
  return { ...served, make, tokenizer: make() };
}

const signal = new AbortController().signal;
const chat = { messages: [{ role: "user" as const, content: "hello" }] };

describe("the tokenizer probe", () => {
  it("remembers a server without a tokenizer (404) after one request: no retry, no error", async () => {
    const { seen, tokenizer, make } = await tokenizerOn(() => ({ status: 404, body: "404 page not found" }));
    const none = { uncounted: expect.stringMatching(/^no tokenizer at http:\/\/.+ \(\/tokenize answered 404\)$/) };
    expect(await tokenizer.count(chat, signal)).toEqual(none);
    expect(await tokenizer.count({ prompt: "x" }, signal)).toEqual(none);
    // another model on the same server: the root's answer is already known
    expect(await make("other").count(chat, signal)).toEqual(none);
    expect(seen.map((one) => one.path)).toEqual(["/tokenize"]);
    expect(await tokenizer.probe()).toEqual({ flavour: "none", reason: "/tokenize answered 404" });
  });

  it("remembers a 405, a 500 and an answer of another shape as none too", async () => {
    for (const answer of [
      { status: 405, body: { detail: "Method Not Allowed" } },
      { status: 500, body: { error: "boom" } },
      { status: 200, body: { ok: true } },
    ]) {
      const { seen, tokenizer } = await tokenizerOn(() => answer);
      await tokenizer.count(chat, signal);
      await tokenizer.count(chat, signal);
      expect(seen, JSON.stringify(answer)).toHaveLength(1);
      expect((await tokenizer.probe()).flavour).toBe("none");
    }
  });

  it("tells vLLM (`count`) from llama.cpp (a bare `tokens` list) by the probe's answer, at the server's root", async () => {
    const vllm = await tokenizerOn(() => ({ status: 200, body: { count: 3, max_model_len: 4096, tokens: [1, 2, 3] } }));
    expect(await vllm.tokenizer.probe()).toEqual({ flavour: "vllm" });
    expect(vllm.seen[0]).toEqual({ path: "/tokenize", body: { model: "qwen", prompt: "OnsetLab" } });
    const llamacpp = await tokenizerOn(() => ({ status: 200, body: { tokens: [] } }));
    expect(await llamacpp.tokenizer.probe()).toEqual({ flavour: "llamacpp" });
  });
});

describe("counting", () => {
  it("vLLM: a chat's messages and tools with the generation prompt, a completion's prompt; the answer's count", async () => {
    const { seen, tokenizer } = await tokenizerOn(({ body }) => ({
      status: 200,
      body: { count: "messages" in body ? 42 : 7, max_model_len: 4096, tokens: [] },
    }));
    const tools = [{ type: "function" as const, function: { name: "get_me", description: "me", parameters: {} } }];
    expect(await tokenizer.count({ ...chat, tools }, signal)).toEqual({ tokens: 42 });
    expect(await tokenizer.count({ prompt: "Task: x" }, signal)).toEqual({ tokens: 7 });
    expect(seen.slice(1).map((one) => one.body)).toEqual([
      { model: "qwen", messages: chat.messages, tools, add_generation_prompt: true },
      { model: "qwen", prompt: "Task: x" },
    ]);
  });

  it("vLLM: a refusal naming the maximum context length is the count's verdict; any other failure is no count", async () => {
    let status = 400;
    const { tokenizer } = await tokenizerOn(({ body }) =>
      body.prompt === "OnsetLab"
        ? { status: 200, body: { count: 1, max_model_len: 4096, tokens: [1] } }
        : {
            status,
            body: {
              error: { message: "This model's maximum context length is 4096 tokens. However, you requested 5000" },
            },
          },
    );
    expect(await tokenizer.count(chat, signal)).toEqual({ refused: expect.stringMatching(/maximum context length/) });
    status = 500;
    expect(await tokenizer.count(chat, signal)).toEqual({
      uncounted: expect.stringMatching(/^the tokenizer at .+ failed \(\/tokenize answered 500: /),
    });
    // a failed count is not a missing tokenizer: the next one is asked again
    expect((await tokenizer.probe()).flavour).toBe("vllm");
  });

  it("llama.cpp: the template applied to messages and tools, then its prompt tokenized with BOS", async () => {
    const { seen, tokenizer } = await tokenizerOn(({ path, body }) => {
      if (path === "/apply-template") return { status: 200, body: { prompt: "<|user|>hello<|assistant|>" } };
      const content = String(body.content ?? "");
      return { status: 200, body: { tokens: content.split("|").map((_, index) => index) } };
    });
    expect(await tokenizer.count(chat, signal)).toEqual({ tokens: 5 });
    expect(seen.slice(1)).toEqual([
      { path: "/apply-template", body: { messages: chat.messages } },
      { path: "/tokenize", body: { content: "<|user|>hello<|assistant|>", add_special: true } },
    ]);
    expect(await tokenizer.count({ prompt: "a|b" }, signal)).toEqual({ tokens: 2 });
  });

  it("llama.cpp without /apply-template: no chat count, and the server is remembered as having none", async () => {
    const { seen, tokenizer } = await tokenizerOn(({ path }) =>
      path === "/apply-template"
        ? { status: 404, body: { error: { code: 404 } } }
        : { status: 200, body: { tokens: [] } },
    );
    expect(await tokenizer.count(chat, signal)).toEqual({
      uncounted: expect.stringMatching(/^the tokenizer at .+ failed \(\/apply-template answered 404\)$/),
    });
    expect(await tokenizer.count({ prompt: "x" }, signal)).toEqual({
      uncounted: expect.stringMatching(/^no tokenizer at .+ \(\/apply-template answered 404\)$/),
    });
    expect(seen.map((one) => one.path)).toEqual(["/tokenize", "/apply-template"]);
    expect(await tokenizer.probe()).toEqual({ flavour: "none", reason: "/apply-template answered 404" });
  });

  it("throws the caller's abort instead of taking it for a missing tokenizer", async () => {
    const { tokenizer } = await tokenizerOn(() => ({ status: 200, body: { count: 1, max_model_len: 9, tokens: [1] } }));
    await tokenizer.probe();
    const stop = new AbortController();
    stop.abort(new Error("stopped"));
    await expect(tokenizer.count(chat, stop.signal)).rejects.toThrow();
    expect((await tokenizer.probe()).flavour).toBe("vllm");
  });
});
