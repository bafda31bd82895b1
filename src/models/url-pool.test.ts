import { describe, expect, it } from "vitest";
import type { CompletionRequest, CompletionResponse, ModelProvider } from "./types.ts";
import { UrlPoolProvider } from "./url-pool.ts";

/** Answers after `delayMs`, keeping the most calls it had in flight at once. */
class BusyServer implements ModelProvider {
  readonly id = "ollama:m";
  inFlight = 0;
  most = 0;
  served = 0;
  constructor(private readonly delayMs: number) {}

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    this.inFlight += 1;
    this.most = Math.max(this.most, this.inFlight);
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    this.inFlight -= 1;
    this.served += 1;
    return {
      text: request.prompt,
      usage: { promptTokens: 1, completionTokens: 1 },
      timings: { totalMs: this.delayMs },
    };
  }

  async chat() {
    return { ...(await this.complete({ stage: "native", prompt: "" })), toolCalls: [] };
  }
}

describe("UrlPoolProvider", () => {
  it("keeps each URL within its concurrency, fills the least busy first, and names the URL that served", async () => {
    const a = new BusyServer(20);
    const b = new BusyServer(20);
    const pool = new UrlPoolProvider([
      { url: "http://a", concurrency: 1, provider: a },
      { url: "http://b", concurrency: 3, provider: b },
    ]);
    const calls = Array.from({ length: 12 }, (_, n) => pool.complete({ stage: "planner", prompt: `q${n}` }));
    // the first four start at once: one on a, three on b
    expect(pool.load()).toEqual({ "http://a": 1, "http://b": 3 });
    const answers = await Promise.all(calls);
    expect(a.most).toBe(1);
    expect(b.most).toBe(3);
    expect(a.served + b.served).toBe(12);
    expect(b.served).toBeGreaterThan(a.served);
    expect(answers.filter((answer) => answer.servedBy === "http://a")).toHaveLength(a.served);
    expect(answers.map((answer) => answer.text)).toEqual(Array.from({ length: 12 }, (_, n) => `q${n}`));
    expect(pool.load()).toEqual({ "http://a": 0, "http://b": 0 });
  });
});
