/**
 * Provider conformance: the SAME cases run against every provider — ollama → stand-in, openai →
 * stand-in, a replay of a cassette recorded from ollama → stand-in, and the simulator itself. The
 * stand-in answers from `sim:oracle`, so every subject must give exactly what a fresh simulator gives
 * for the same request: the HTTP layers, the real `ollama` client and the cassette add nothing.
 */

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mockServerSpecs } from "../../mock-servers/index.ts";
import { type Standin, startStandin } from "../../mock-servers/ollama/server.ts";
import { toChatTools } from "../../src/agent/native.ts";
import { buildPlannerPrompt, plannerOptions } from "../../src/agent/planner.ts";
import { loadDataset } from "../../src/bench/dataset/load.ts";
import { RecordingProvider, ReplayProvider } from "../../src/models/cassette.ts";
import { OllamaProvider } from "../../src/models/ollama.ts";
import { OpenAIProvider } from "../../src/models/openai.ts";
import { createSimProvider } from "../../src/models/sim/index.ts";
import type { ChatRequest, CompletionRequest, ModelProvider } from "../../src/models/types.ts";
import type { ToolDefinition } from "../../src/tool-protocol/types.ts";

const gold = loadDataset().map((loaded) => loaded.item);
const item = gold.find((candidate) => candidate.id === "gh-s001")!;
// twelve tools and the item's own: a simulated model calls only tools its request shows
const tools: ToolDefinition[] = mockServerSpecs
  .github!.tools.filter((tool, index) => index < 12 || item.calls.some((call) => call.tool === tool.name))
  .map((tool) => ({
    server: "github",
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: tool.annotations,
  }));
const oracle = () => createSimProvider({ profile: "oracle", gold, seed: 1 });

const planRequest: CompletionRequest = {
  stage: "planner",
  prompt: buildPlannerPrompt({ query: item.query, tools }),
  options: plannerOptions(150),
};
const toolRequest: ChatRequest = {
  stage: "native",
  messages: [{ role: "user", content: item.query }],
  tools: toChatTools(tools),
  options: { temperature: 0 },
};
/** Different from planRequest, so its recorded failure has a key of its own. */
const slowRequest: CompletionRequest = { ...planRequest, stage: "solver", prompt: `Question: ${item.query}\nAnswer:` };

interface Subject {
  provider: ModelProvider;
  /** Takes longer than `timeoutMs` to answer `slowRequest`. */
  slow: ModelProvider;
  timeoutMs: number;
  /** Streams over HTTP: an answer of several words arrives in several pieces. */
  http: boolean;
}

const subjects = new Map<string, Subject>();
const servers: Standin[] = [];

beforeAll(async () => {
  const fast = await startStandin({ provider: oracle(), port: 0 });
  const slow = await startStandin({ provider: oracle(), port: 0, pace: 5 });
  servers.push(fast, slow);
  const ollama = (host: string) => new OllamaProvider({ model: "qwen2.5:3b", host });
  const openai = (host: string) => new OpenAIProvider({ model: "qwen2.5:3b", baseUrl: `${host}/v1` });
  subjects.set("ollama → stand-in", { provider: ollama(fast.url), slow: ollama(slow.url), timeoutMs: 150, http: true });
  subjects.set("openai → stand-in", { provider: openai(fast.url), slow: openai(slow.url), timeoutMs: 150, http: true });
  subjects.set("sim", { provider: oracle(), slow: oracle(), timeoutMs: 1, http: false });

  // The cassette: the same cases, recorded once from ollama → stand-in (its timeout included).
  const cassette = join(mkdtempSync(join(tmpdir(), "conformance-")), "ollama.cassette.jsonl");
  const recorder = new RecordingProvider(ollama(fast.url), cassette);
  await recorder.complete(planRequest);
  await recorder.chat(toolRequest);
  await recorder.complete({ ...planRequest, onText: () => {} });
  await new RecordingProvider(ollama(slow.url), cassette)
    .complete({ ...slowRequest, timeoutMs: 150 })
    .catch(() => undefined);
  const replay = new ReplayProvider(cassette, "ollama:qwen2.5:3b");
  subjects.set("replay", { provider: replay, slow: replay, timeoutMs: 150, http: false });
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

async function failureOf(pending: Promise<unknown>): Promise<{ code?: string; message: string }> {
  const failure = await pending.then(
    () => undefined,
    (error: unknown) => error as { code?: string; message: string },
  );
  if (!failure) throw new Error("expected the call to fail");
  return failure;
}

describe.each(["ollama → stand-in", "openai → stand-in", "replay", "sim"])("%s", (name) => {
  const subject = () => subjects.get(name)!;

  it("completes text exactly as the simulator does, with usage and timings", async () => {
    const response = await subject().provider.complete(planRequest);
    const expected = await oracle().complete(planRequest);
    expect(response.text).toBe(expected.text);
    expect(response.text).toMatch(/list_issues\(/);
    expect(response.usage.promptTokens).toBeGreaterThan(0);
    expect(response.usage.completionTokens).toBeGreaterThan(0);
    expect(Number.isFinite(response.timings.totalMs) && response.timings.totalMs >= 0).toBe(true);
  });

  it("chats with native tools: the same tool call, arguments parsed to an object", async () => {
    const response = await subject().provider.chat(toolRequest);
    const expected = await oracle().chat(toolRequest);
    const calls = (answer: typeof response) => answer.toolCalls.map(({ name, arguments: args }) => ({ name, args }));
    expect(calls(response)).toEqual(calls(expected));
    expect(calls(response)).toEqual([{ name: "list_issues", args: { owner: "acme", repo: "webapp", state: "OPEN" } }]);
    expect(response.usage.promptTokens).toBeGreaterThan(0);
    expect(response.timings.totalMs).toBeGreaterThanOrEqual(0);
  });

  it("streams: the pieces handed to onText make up the answer", async () => {
    const pieces: string[] = [];
    const response = await subject().provider.complete({ ...planRequest, onText: (piece) => pieces.push(piece) });
    expect(pieces.join("")).toBe(response.text);
    expect(response.text).toBe((await oracle().complete(planRequest)).text);
    if (subject().http) expect(pieces.length).toBeGreaterThan(1);
  });

  it("stops on an aborted signal with code MODEL_ABORTED", async () => {
    const controller = new AbortController();
    controller.abort(new Error("user stop"));
    const failure = await failureOf(subject().provider.complete({ ...planRequest, signal: controller.signal }));
    expect(failure.code).toBe("MODEL_ABORTED");
    if (subject().http) {
      const midway = new AbortController();
      setTimeout(() => midway.abort(new Error("user stop")), 50);
      const late = await failureOf(subject().slow.complete({ ...slowRequest, signal: midway.signal }));
      expect(late.code).toBe("MODEL_ABORTED");
    }
  });

  it("gives up after its time limit with code MODEL_TIMEOUT", async () => {
    const started = performance.now();
    const failure = await failureOf(subject().slow.complete({ ...slowRequest, timeoutMs: subject().timeoutMs }));
    expect(failure.code).toBe("MODEL_TIMEOUT");
    expect(failure.message).toMatch(/within 150 ms|over its 1 ms limit/);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
