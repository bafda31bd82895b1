import { describe, expect, it } from "vitest";
import type { ChatMessage, ChatTool } from "../types.ts";
import { CHARS_PER_TOKEN, chatChars, fitContextWindow } from "./context-window.ts";
import { SimEngine } from "./engine.ts";
import { TEST_ITEMS, testItem } from "./testing/items.ts";

const tool = (name: string): ChatTool => ({ name, description: "x".repeat(200), parameters: { type: "object" } });

describe("fitContextWindow", () => {
  it("leaves a request that fits alone and reads a long prompt from its tail", () => {
    const request = { kind: "complete" as const, stage: "planner" as const, prompt: "head ".repeat(10) + "tail" };
    expect(fitContextWindow(request, 100)).toBe(request);
    const cut = fitContextWindow(request, 2);
    expect(cut).toEqual({ ...request, prompt: request.prompt.slice(-2 * CHARS_PER_TOKEN) });
  });

  it("drops a chat's oldest messages, keeping the system and the last message, then its first tools", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "s".repeat(40) },
      { role: "user", content: "u".repeat(400) },
      { role: "assistant", content: "a".repeat(400) },
      { role: "user", content: "last question" },
    ];
    const tools = [tool("first"), tool("second")];
    const fitted = fitContextWindow({ kind: "chat", stage: "native", messages, tools }, 250);
    if (fitted.kind !== "chat") throw new Error("a chat stays a chat");
    expect(fitted.messages.map((message) => message.role)).toEqual(["system", "assistant", "user"]);
    expect(fitted.tools?.map((t) => t.name)).toEqual(["first", "second"]);
    expect(chatChars(fitted.messages, fitted.tools)).toBeLessThanOrEqual(250 * CHARS_PER_TOKEN);

    const tight = fitContextWindow({ kind: "chat", stage: "native", messages, tools }, 100);
    if (tight.kind !== "chat") throw new Error("a chat stays a chat");
    expect(tight.messages.map((message) => message.role)).toEqual(["system", "user"]);
    expect(tight.tools?.map((t) => t.name)).toEqual(["second"]);
  });
});

describe("the simulator's context window", () => {
  it("does not see a query pushed out of its window by a long prompt", () => {
    const engine = new SimEngine({ profile: "oracle", gold: TEST_ITEMS });
    const item = testItem("sim-single");
    const prompt = `Task: ${item.query}\n${"filler line\n".repeat(engine.profile.contextWindow)}#E1 =`;
    expect(engine.analyse({ kind: "complete", stage: "planner", prompt: `Task: ${item.query}\n#E1 =` }).itemId).toBe(
      item.id,
    );
    expect(engine.analyse({ kind: "complete", stage: "planner", prompt }).itemId).toBeUndefined();
  });
});
