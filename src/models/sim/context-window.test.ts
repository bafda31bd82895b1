import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../types.ts";
import { SimEngine } from "./engine.ts";
import { TEST_ITEMS, testItem } from "./testing/items.ts";

describe("the simulator's context window", () => {
  const engine = new SimEngine({ profile: "oracle", gold: TEST_ITEMS });
  const item = testItem("sim-single");

  it("does not see a query pushed out of its window by a long prompt", () => {
    const prompt = `Task: ${item.query}\n${"filler line\n".repeat(engine.profile.contextWindow)}#E1 =`;
    expect(engine.analyse({ kind: "complete", stage: "planner", prompt: `Task: ${item.query}\n#E1 =` }).itemId).toBe(
      item.id,
    );
    expect(engine.analyse({ kind: "complete", stage: "planner", prompt }).itemId).toBeUndefined();
  });

  it("still sees the last message of a chat whose old messages do not fit", () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "filler ".repeat(engine.profile.contextWindow) },
      { role: "assistant", content: "noted" },
      { role: "user", content: item.query },
    ];
    expect(engine.analyse({ kind: "chat", stage: "native", messages }).itemId).toBe(item.id);
  });
});
