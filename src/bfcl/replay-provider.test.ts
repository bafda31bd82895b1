import { rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildPlannerPrompt } from "../agent/planner.ts";
import type { ToolDefinition } from "../tool-protocol/types.ts";
import { BfclReplayMissError } from "./errors.ts";
import { type BfclRecording, BfclReplayProvider, bfclReplayProvider, NEUTRAL_TEXT } from "./replay-provider.ts";
import { SAMPLE_MODEL, writeSample } from "./testing/sample.ts";

function tool(name: string): ToolDefinition {
  return {
    server: "bfcl",
    name,
    description: `${name} does a thing.`,
    inputSchema: { type: "object", properties: { a: { type: "integer" } }, required: ["a"] },
    annotations: {},
  };
}

function plannerPrompt(query: string, tools: readonly string[]): string {
  return buildPlannerPrompt({ query, tools: tools.map(tool) });
}

const recordings: BfclRecording[] = [
  { id: "simple_4", query: "Solve x^2 = 4", tools: ["solve"], output: "[solve(a=1)]", latencyMs: 1500 },
  { id: "multiple_96", query: "Solve x^2 = 4", tools: ["stock", "solve", "plot"], output: "[solve(a=2)]" },
  { id: "simple_9", query: "Add 2 and 3", tools: ["add"], output: "[add(a=2, b=3)]" },
  { id: "simple_10", query: "Task: nested marker\nand more", tools: ["add"], output: "[add(a=9)]" },
];
const provider = new BfclReplayProvider(recordings, "tiny");

async function plan(query: string, tools: readonly string[]): Promise<string> {
  return (await provider.complete({ stage: "planner", prompt: plannerPrompt(query, tools) })).text;
}

describe("bfcl-replay provider", () => {
  it("answers the planner with the recorded output of the question in the prompt", async () => {
    expect(provider.id).toBe("bfcl-replay:tiny");
    expect(await plan("Add 2 and 3", ["add"])).toBe("[add(a=2, b=3)]");
    const response = await provider.complete({ stage: "planner", prompt: plannerPrompt("Solve x^2 = 4", ["solve"]) });
    expect(response.timings.totalMs).toBe(1500);
  });

  it("tells apart questions with the same text by the functions the prompt lists", async () => {
    expect(await plan("Solve x^2 = 4", ["solve"])).toBe("[solve(a=1)]");
    expect(await plan("Solve x^2 = 4", ["stock", "solve", "plot"])).toBe("[solve(a=2)]");
  });

  it("finds a question whose text itself contains the task marker", async () => {
    expect(await plan("Task: nested marker\nand more", ["add"])).toBe("[add(a=9)]");
  });

  it("a prompt with no recorded question is a miss, never a guess", async () => {
    await expect(plan("Multiply 2 and 3", ["add"])).rejects.toBeInstanceOf(BfclReplayMissError);
    const twins = new BfclReplayProvider(
      [
        { id: "a", query: "Same", tools: ["f"], output: "[f(a=1)]" },
        { id: "b", query: "Same", tools: ["f"], output: "[f(a=2)]" },
      ],
      "twins",
    );
    await expect(twins.complete({ stage: "planner", prompt: plannerPrompt("Same", ["f"]) })).rejects.toThrow(
      /fits several recorded questions equally well: a, b/,
    );
  });

  it("other stages get a short neutral text", async () => {
    const solver = await provider.complete({ stage: "solver", prompt: "Question: Add 2 and 3\nData: …" });
    expect(solver.text).toBe(NEUTRAL_TEXT);
    const chat = await provider.chat({ stage: "native", messages: [{ role: "user", content: "Add 2 and 3" }] });
    expect(chat).toMatchObject({ text: NEUTRAL_TEXT, toolCalls: [] });
  });
});

describe("bfcl-replay provider from a model's result folder", () => {
  it("reads every recorded output of the folder, named after it", async () => {
    const sample = writeSample();
    try {
      const fromDir = bfclReplayProvider(sample.resultDir, { dataDir: sample.dataDir });
      expect(fromDir.id).toBe(`bfcl-replay:${SAMPLE_MODEL}`);
      const prompt = plannerPrompt("What is the factorial of 5?", ["math.factorial"]);
      const response = await fromDir.complete({ stage: "planner", prompt });
      expect(response).toMatchObject({ text: "[math.factorial()]", timings: { totalMs: 1500 } });
    } finally {
      rmSync(sample.root, { recursive: true, force: true });
    }
  });
});
