import { describe, expect, it } from "vitest";
import { PromptTooLongError } from "../models/errors.ts";
import type { CallContext, CompletionRequest, ModelProvider } from "../models/types.ts";
import { ModelCallError, RunAbortedError } from "./errors.ts";
import { RunRecorder } from "./recorder.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Answers after `delayMs`, or rejects when the request's signal fires first. */
function slowModel(delayMs: number, fail = false): ModelProvider {
  const complete = (request: CompletionRequest) =>
    new Promise<{
      text: string;
      usage: { promptTokens: number; completionTokens: number };
      timings: { totalMs: number };
    }>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (fail) reject(new Error("model down"));
        else resolve({ text: "ok", usage: { promptTokens: 3, completionTokens: 1 }, timings: { totalMs: delayMs } });
      }, delayMs);
      request.signal?.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(new Error("aborted"));
      });
    });
  return {
    id: "slow",
    complete,
    chat: async () => ({ ...(await complete({ stage: "native", prompt: "" })), toolCalls: [] }),
  };
}

describe("RunRecorder", () => {
  it("records a model call with its prompt, output, usage and duration", async () => {
    const recorder = new RunRecorder(slowModel(5), new AbortController().signal, () => "stop");
    await recorder.complete("planner", { stage: "planner", prompt: "Task: x", options: { temperature: 0 } });
    expect(recorder.modelCalls).toEqual([
      expect.objectContaining({
        seq: 1,
        stage: "planner",
        kind: "complete",
        prompt: "Task: x",
        output: "ok",
        usage: { promptTokens: 3, completionTokens: 1 },
        options: { temperature: 0 },
      }),
    ]);
    expect(recorder.modelCalls[0]?.durationMs).toBeGreaterThan(0);
  });

  it("turns a provider failure into ModelCallError and keeps the failed call", async () => {
    const recorder = new RunRecorder(slowModel(1, true), new AbortController().signal, () => "stop");
    await expect(recorder.complete("solver", { stage: "solver", prompt: "x" })).rejects.toBeInstanceOf(ModelCallError);
    expect(recorder.modelCalls[0]?.error).toBe("model down");
  });

  it("keeps the context accounting of a prompt the server's tokenizer refused before sending", async () => {
    const callContext: CallContext = {
      window: 4096,
      windowSource: "server",
      estimate: 4700,
      countSource: "tokenizer",
      counted: 4505,
    };
    const refusing: ModelProvider = {
      id: "refusing",
      complete: async () => {
        throw new PromptTooLongError("the prompt does not fit", callContext);
      },
      chat: async () => {
        throw new Error("not asked");
      },
    };
    const recorder = new RunRecorder(refusing, new AbortController().signal, () => "stop");
    await expect(recorder.complete("planner", { stage: "planner", prompt: "x" })).rejects.toBeInstanceOf(
      ModelCallError,
    );
    expect(recorder.modelCalls[0]).toMatchObject({ invalid: "context_overflow", context: callContext });
    expect(recorder.modelCalls[0]).not.toHaveProperty("usage");
  });

  it("turns a failure caused by the run's signal into RunAbortedError with the reason", async () => {
    const controller = new AbortController();
    const recorder = new RunRecorder(slowModel(1000), controller.signal, () => "total time limit of 20 ms exceeded");
    setTimeout(() => controller.abort(), 20);
    const failure = recorder.complete("planner", { stage: "planner", prompt: "x" });
    await expect(failure).rejects.toBeInstanceOf(RunAbortedError);
    await expect(failure).rejects.toThrow("run stopped in planner: total time limit of 20 ms exceeded");
  });

  it("counts overlapping tool calls once in the tool time", async () => {
    const recorder = new RunRecorder(slowModel(1), new AbortController().signal, () => "stop");
    // each call waits until the other has started, so the two intervals overlap whatever the machine's load
    let startA = () => {};
    let startB = () => {};
    const aStarted = new Promise<void>((resolve) => {
      startA = resolve;
    });
    const bStarted = new Promise<void>((resolve) => {
      startB = resolve;
    });
    const [a, b] = await Promise.all([
      recorder.timeTool(async () => {
        startA();
        await bStarted;
        await sleep(5);
      }),
      recorder.timeTool(async () => {
        startB();
        await aStarted;
        await sleep(5);
      }),
    ]);
    const union = Math.max(a.startMs + a.durationMs, b.startMs + b.durationMs) - Math.min(a.startMs, b.startMs);
    const { toolsMs, totalMs } = recorder.timings();
    expect(Math.abs(toolsMs - union)).toBeLessThan(1);
    expect(toolsMs).toBeLessThan(a.durationMs + b.durationMs);
    expect(totalMs).toBeGreaterThanOrEqual(toolsMs);
  });
});
