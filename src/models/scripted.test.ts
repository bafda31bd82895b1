import { describe, expect, it } from "vitest";
import { ScriptExhaustedError, ScriptedModel } from "./scripted.ts";

describe("ScriptedModel", () => {
  it("hands out replies per stage, in order, and records each request", async () => {
    const model = new ScriptedModel({ planner: ["plan one", "plan two"], solver: ["answer"] });
    expect((await model.complete({ stage: "planner", prompt: "P1" })).text).toBe("plan one");
    expect((await model.complete({ stage: "solver", prompt: "S1" })).text).toBe("answer");
    expect((await model.complete({ stage: "planner", prompt: "P2" })).text).toBe("plan two");
    expect(model.requests.map((request) => [request.stage, request.kind === "complete" && request.prompt])).toEqual([
      ["planner", "P1"],
      ["solver", "S1"],
      ["planner", "P2"],
    ]);
    expect(model.requestsFor("planner")).toHaveLength(2);
    expect(() => model.assertFinished()).not.toThrow();
  });

  it("returns native tool calls from chat and keeps a copy of the messages", async () => {
    const model = new ScriptedModel({ native: [{ toolCalls: [{ name: "get_me", arguments: {} }] }] });
    const messages = [{ role: "user" as const, content: "who am I" }];
    const response = await model.chat({ stage: "native", messages, tools: [] });
    messages[0]!.content = "changed";
    expect(response).toMatchObject({ text: "", toolCalls: [{ name: "get_me", arguments: {} }] });
    expect(response.usage.promptTokens).toBeGreaterThan(0);
    const recorded = model.requests[0];
    expect(recorded?.kind === "chat" && recorded.messages[0]?.content).toBe("who am I");
  });

  it("throws a scripted error", async () => {
    const model = new ScriptedModel({ router: [{ error: new Error("503 queue full") }] });
    await expect(model.complete({ stage: "router", prompt: "x" })).rejects.toThrow("503 queue full");
  });

  it("fails loudly when a stage's script runs out, naming the stage and the prompt", async () => {
    const model = new ScriptedModel({ planner: ["only"] });
    await model.complete({ stage: "planner", prompt: "first" });
    const failure = model.complete({ stage: "planner", prompt: "Task: second" });
    await expect(failure).rejects.toBeInstanceOf(ScriptExhaustedError);
    await expect(model.complete({ stage: "solver", prompt: "x" })).rejects.toThrow(
      'scripted model has no reply left for stage "solver"; prompt began: "x"',
    );
    expect(() => model.assertFinished()).toThrow("ran out at [planner, solver]");
  });

  it("reports replies left unused", () => {
    const model = new ScriptedModel({ solver: ["unused"] });
    expect(model.remaining()).toEqual({ solver: 1 });
    expect(() => model.assertFinished()).toThrow('unused {"solver":1}');
  });
});
