/**
 * The stand-in's cost model through Ollama's API: a slot's prompt cache (only the uncached suffix is
 * evaluated, and timed), slots and the queue behind them, the load on first use, /api/ps, and the
 * statistics endpoint with its reset. Rates are low and the time scale small, so the waits are real
 * but short.
 */

import { Ollama } from "ollama";
import { afterEach, describe, expect, it } from "vitest";
import { EchoModel } from "../../test/support/echo-model.ts";
import { type Standin, type StandinOptions, startStandin } from "./server.ts";
import type { StandinStatsReport } from "./stats.ts";

let standin: Standin | undefined;

afterEach(async () => {
  await standin?.close();
  standin = undefined;
});

async function start(options: Omit<StandinOptions, "provider" | "port">): Promise<{ client: Ollama; url: string }> {
  standin = await startStandin({ provider: new EchoModel(), port: 0, ...options });
  return { client: new Ollama({ host: standin.url }), url: standin.url };
}

async function statsOf(url: string): Promise<StandinStatsReport> {
  return (await (await fetch(`${url}/__standin/stats`)).json()) as StandinStatsReport;
}

/** A prompt of exactly `tokens` tokens (4 characters each). */
function text(tokens: number, fill: string): string {
  return fill.repeat(tokens * 4).slice(0, tokens * 4);
}

describe("the prompt cache of a slot", () => {
  it("evaluates only the suffix a second request does not share, and times only that", async () => {
    // truncation on: prompt tokens are counted at 4 characters (lenient mode takes the provider's count)
    const behaviour = { parallel: 1, truncate: true };
    const { client, url } = await start({ promptRate: 1000, genRate: 1000, timeScale: 1, behaviour });
    const shared = text(400, "tools and rules ");
    const first = await client.generate({ model: "m", prompt: `${shared}${text(100, "a")}`, stream: false });
    const second = await client.generate({ model: "m", prompt: `${shared}${text(100, "b")}`, stream: false });
    // the count is the whole prompt (as the contract says), the evaluation time only the uncached part's
    expect(first.prompt_eval_count).toBe(500);
    expect(second.prompt_eval_count).toBe(500);
    expect(first.prompt_eval_duration / 1e6).toBeCloseTo(500, 0);
    expect(second.prompt_eval_duration / 1e6).toBeCloseTo(100, 0);
    const stats = await statsOf(url);
    expect(stats).toMatchObject({ requests: 2, promptTokensSent: 1000, promptTokensEvaluated: 600 });
    expect(stats.busyMs).toBeGreaterThanOrEqual(600);
    expect(stats.slots).toHaveLength(1);
  });

  it("keeps the answer in the cache: the next turn of a conversation evaluates only what was added", async () => {
    const { client, url } = await start({ behaviour: { parallel: 1 } });
    const prompt = `${text(200, "question ")}Thought:`;
    const first = await client.generate({ model: "m", prompt, stream: false });
    await client.generate({
      model: "m",
      prompt: `${prompt}${first.response}\nObservation: ok\nThought:`,
      stream: false,
    });
    const stats = await statsOf(url);
    const evaluatedSecond = stats.promptTokensEvaluated - (first.prompt_eval_count ?? 0);
    expect(evaluatedSecond).toBeLessThanOrEqual(8);
  });

  it("sends a request to the slot whose cache shares the longest prefix", async () => {
    const { client, url } = await start({ behaviour: { parallel: 2, truncate: true } });
    const a = text(300, "alpha ");
    const b = text(300, "beta ");
    // both at once, so each gets a slot of its own
    await Promise.all([
      client.generate({ model: "m", prompt: `${a}1`, stream: false }),
      client.generate({ model: "m", prompt: `${b}1`, stream: false }),
    ]);
    await client.generate({ model: "m", prompt: `${b}2`, stream: false });
    await client.generate({ model: "m", prompt: `${a}2`, stream: false });
    const stats = await statsOf(url);
    expect(stats.slots).toHaveLength(2);
    // each prompt is 301 tokens: the later two find 300 of them in the slot that saw the same start
    expect(stats.promptTokensSent - stats.promptTokensEvaluated).toBe(600);
    for (const slot of stats.slots) expect(slot.requests).toBe(2);
  });

  it("loses the cache when the model is reloaded for another window", async () => {
    const { client, url } = await start({ real: true });
    const prompt = text(100, "same prompt ");
    await client.generate({ model: "qwen2.5:3b", prompt, stream: false, options: { num_ctx: 2048 } });
    await client.generate({ model: "qwen2.5:3b", prompt, stream: false, options: { num_ctx: 4096 } });
    await client.generate({ model: "qwen2.5:3b", prompt, stream: false, options: { num_ctx: 4096 } });
    const stats = await statsOf(url);
    // the third request alone finds the prompt cached (all but its last token)
    expect(stats.promptTokensEvaluated).toBe(100 + 100 + 1);
  });
});

describe("slots and the queue", () => {
  it("serves one request per slot; the others wait, and the slots' busy time adds up", async () => {
    const { client, url } = await start({ promptRate: 1e6, genRate: 100, timeScale: 1, behaviour: { parallel: 1 } });
    const started = performance.now();
    await Promise.all(
      ["one", "two", "three"].map((word) => client.generate({ model: "m", prompt: word, stream: false })),
    );
    const wall = performance.now() - started;
    const stats = await statsOf(url);
    // "echo: <word>" is 2–3 tokens: 20–30 ms each at 100 tokens/s, one after another
    expect(stats.requests).toBe(3);
    expect(wall).toBeGreaterThanOrEqual(stats.busyMs - 5);
    expect(stats.busyMs).toBeGreaterThanOrEqual((stats.generatedTokens / 100) * 1000 - 1);
  });
});

describe("the load", () => {
  it("is waited on first use (scaled), reported, counted, and /api/ps lists the model", async () => {
    const { client, url } = await start({ timeScale: 0.5, genRate: 1000, behaviour: { coldStartMs: 200 } });
    const first = await client.generate({ model: "m", prompt: "a", stream: false, keep_alive: "1m" });
    const second = await client.generate({ model: "m", prompt: "b", stream: false });
    expect(first.load_duration / 1e6).toBeGreaterThanOrEqual(100);
    expect(first.load_duration / 1e6).toBeLessThan(200);
    expect(second).not.toHaveProperty("load_duration");
    const stats = await statsOf(url);
    expect(stats.loads).toBe(1);
    expect(stats.loadMs).toBeGreaterThanOrEqual(100);
    const running = await client.ps();
    expect(running.models.map((entry) => entry.name)).toEqual(["m"]);
    expect(Date.parse(String(running.models[0]?.expires_at))).toBeGreaterThan(Date.now());
  });
});

describe("the statistics", () => {
  it("start again from zero after a reset", async () => {
    const { client, url } = await start({});
    await client.generate({ model: "m", prompt: "count me", stream: false });
    expect((await statsOf(url)).requests).toBe(1);
    const reset = await fetch(`${url}/__standin/stats/reset`, { method: "POST" });
    expect(((await reset.json()) as StandinStatsReport).requests).toBe(0);
    expect(standin?.stats()).toMatchObject({ requests: 0, promptTokensSent: 0, slots: [] });
    await client.generate({ model: "m", prompt: "and me", stream: false });
    expect(standin?.stats()).toMatchObject({ requests: 1, promptTokensSent: 2 });
  });
});

describe("a load request", () => {
  it("loads the model and counts the load and the slot's time, but no request served", async () => {
    const { client, url } = await start({ behaviour: { coldStartMs: 50 } });
    expect(await client.generate({ model: "m", prompt: "" })).toMatchObject({ done_reason: "load" });
    const stats = await statsOf(url);
    expect(stats).toMatchObject({ requests: 0, loads: 1, promptTokensSent: 0 });
    expect(stats.busyMs).toBeGreaterThanOrEqual(stats.loadMs);
    expect(stats.loadMs).toBeGreaterThanOrEqual(50);
  });
});
