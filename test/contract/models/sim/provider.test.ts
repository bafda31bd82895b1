import { describe, expect, it } from "vitest";
import { buildPlannerPrompt } from "../../../../src/agent/planner.ts";
import { buildReactPrompt } from "../../../../src/agent/react.ts";
import { SAMPLE_TOOLS } from "../../../../src/agent/testing/definitions.ts";
import { ModelAbortedError, ModelTimeoutError } from "../../../../src/models/errors.ts";
import { renderPrompt } from "../../../../src/models/prompt-text.ts";
import { SimEngine } from "../../../../src/models/sim/engine.ts";
import { createSimProvider } from "../../../../src/models/sim/provider.ts";
import { TEST_ITEMS } from "../../../../src/models/sim/testing/items.ts";
import type { CompletionRequest } from "../../../../src/models/types.ts";

/** Planner prompts that differ only in an irrelevant context line: independent draws, same item. */
const plannerRequests: CompletionRequest[] = Array.from({ length: 120 }, (_, index) => ({
  stage: "planner",
  prompt: buildPlannerPrompt({
    query: TEST_ITEMS[index % 6]?.query ?? "",
    tools: SAMPLE_TOOLS,
    context: `request ${index}`,
  }),
}));

async function outputs(profile: string, seed: number, requests: CompletionRequest[]): Promise<string[]> {
  const provider = createSimProvider({ profile, seed, gold: TEST_ITEMS });
  const texts: string[] = [];
  for (const request of requests) texts.push((await provider.complete(request)).text);
  return texts;
}

describe("determinism", () => {
  it("gives the same answer to the same profile, seed and prompt, whatever came before", async () => {
    const forward = await outputs("chaos", 7, plannerRequests);
    const backward = (await outputs("chaos", 7, [...plannerRequests].reverse())).reverse();
    expect(backward).toEqual(forward);
  });

  it("draws differently with another seed, another profile or another stage", async () => {
    const seven = await outputs("chaos", 7, plannerRequests);
    const eight = await outputs("chaos", 8, plannerRequests);
    const differing = seven.filter((text, index) => text !== eight[index]).length;
    expect(differing).toBeGreaterThan(20);
    expect(differing).toBeLessThan(plannerRequests.length);

    const prompt = buildReactPrompt({ query: TEST_ITEMS[0]?.query ?? "", tools: SAMPLE_TOOLS, turns: [] });
    const decisions = (profile: string, stage: "react" | "fallback") =>
      plannerRequests.map(
        (_, seed) =>
          new SimEngine({ profile, seed, gold: TEST_ITEMS }).analyse({ kind: "complete", stage, prompt }).decision,
      );
    expect(decisions("chaos", "react")).not.toEqual(decisions("chaos", "fallback"));
  });
});

describe("usage and timings", () => {
  it("estimates tokens at four characters each and derives durations from the profile's speeds", async () => {
    const provider = createSimProvider({ profile: "slm-3b", gold: TEST_ITEMS });
    const request = plannerRequests[0] as CompletionRequest;
    const response = await provider.complete(request);
    const promptTokens = Math.ceil(request.prompt.length / 4);
    const completionTokens = Math.ceil(response.text.length / 4);
    expect(response.usage).toEqual({ promptTokens, completionTokens });
    const { loadMs, promptEvalMs, evalMs, totalMs } = response.timings;
    expect(loadMs).toBe(20);
    expect(promptEvalMs).toBeCloseTo((promptTokens / 900) * 1000, 3);
    expect(evalMs).toBeCloseTo((completionTokens / 40) * 1000, 3);
    expect(totalMs).toBeCloseTo(20 + (promptEvalMs ?? 0) + (evalMs ?? 0), 3);
    expect((await provider.complete(request)).timings).toEqual(response.timings);
  });

  it("counts a chat's rendered prompt, its tool schemas included", async () => {
    const provider = createSimProvider({ profile: "oracle", gold: TEST_ITEMS });
    const tools = [{ name: "get_me", description: "Who am I", parameters: { type: "object" } }];
    const messages = [{ role: "user" as const, content: "hello" }];
    const response = await provider.chat({ stage: "native", messages, tools });
    expect(response.usage.promptTokens).toBe(Math.ceil(renderPrompt({ messages, tools }).length / 4));
    expect(response.usage.promptTokens).toBeGreaterThan(Math.ceil(`hello${JSON.stringify(tools[0])}`.length / 4));
  });

  it("hands the text to onText when the caller streams", async () => {
    const provider = createSimProvider({ profile: "oracle", gold: TEST_ITEMS });
    const pieces: string[] = [];
    const response = await provider.complete({
      ...(plannerRequests[0] as CompletionRequest),
      onText: (d) => pieces.push(d),
    });
    expect(pieces).toEqual([response.text]);
  });
});

describe("abort and time limits", () => {
  const request = plannerRequests[0] as CompletionRequest;

  it("refuses a call whose signal has fired", async () => {
    const provider = createSimProvider({ profile: "oracle", gold: TEST_ITEMS });
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(provider.complete({ ...request, signal: controller.signal })).rejects.toThrow(ModelAbortedError);
  });

  it("times out when the simulated duration passes the call's limit, without waiting for it", async () => {
    const provider = createSimProvider({ profile: "slm-3b", gold: TEST_ITEMS });
    const attempt = provider.complete({ ...request, timeoutMs: 5 });
    await expect(attempt).rejects.toThrow(ModelTimeoutError);
    await expect(attempt).rejects.toThrow(/\(simulated\), over its 5 ms limit/);
  });

  it("with a pace, really waits — and the wait can be aborted", async () => {
    const provider = createSimProvider({ profile: "oracle", gold: TEST_ITEMS, paceTokensPerSec: 1 });
    const controller = new AbortController();
    const attempt = provider.complete({ ...request, signal: controller.signal });
    setTimeout(() => controller.abort(new Error("enough")), 10);
    await expect(attempt).rejects.toThrow(ModelAbortedError);
  });

  it("with a pace, reports generation at that pace", async () => {
    const provider = createSimProvider({ profile: "oracle", gold: TEST_ITEMS, paceTokensPerSec: 1e9 });
    const response = await provider.complete({ stage: "solver", prompt: "Question: hi\n\nAnswer:" });
    expect(response.timings.evalMs).toBeCloseTo((response.usage.completionTokens / 1e9) * 1000, 3);
  });
});
