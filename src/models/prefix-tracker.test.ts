import { describe, expect, it } from "vitest";
import { EchoModel } from "../../test/support/echo-model.ts";
import { PrefixTracker, trackPrefixes } from "./prefix-tracker.ts";

describe("trackPrefixes", () => {
  it("gives each request the tokens it shares with the previous request to the model", async () => {
    const model = trackPrefixes(new EchoModel(), new PrefixTracker());
    const tools = "Tools:\nlist_issues(owner, repo) - lists issues\n".repeat(5);
    const first = await model.complete({ stage: "planner", prompt: `${tools}Task: first` });
    const second = await model.complete({ stage: "planner", prompt: `${tools}Task: second` });
    const other = await model.complete({ stage: "solver", prompt: "Answer the question." });
    expect(first.sharedPrefixTokens).toBe(0);
    // the tool list and "Task: " are shared, 4 characters a token, a partly shared token not counted
    expect(second.sharedPrefixTokens).toBe(Math.floor(`${tools}Task: `.length / 4));
    expect(other.sharedPrefixTokens).toBe(0);
  });

  it("counts the previous answer as cached: the next turn of a conversation shares it", async () => {
    const model = trackPrefixes(new EchoModel(), new PrefixTracker());
    const prompt = "Question: what is open?\nThought:";
    const first = await model.complete({ stage: "react", prompt });
    const next = `${prompt}${first.text}\nObservation: 3 issues\nThought:`;
    const second = await model.complete({ stage: "react", prompt: next });
    expect(second.sharedPrefixTokens).toBe(Math.floor(`${prompt}${first.text}`.length / 4));
  });

  it("renders a chat with its system message and tools first, so a new question keeps them shared", async () => {
    const model = trackPrefixes(new EchoModel(), new PrefixTracker());
    const tools = [
      { name: "get_me", description: "who am I", parameters: { type: "object" as const, properties: {} } },
    ];
    const system = { role: "system" as const, content: "Use the tools. ".repeat(20) };
    await model.chat({ stage: "native", messages: [system, { role: "user", content: "who am I?" }], tools });
    const second = await model.chat({
      stage: "native",
      messages: [system, { role: "user", content: "and you?" }],
      tools,
    });
    expect(second.sharedPrefixTokens).toBeGreaterThanOrEqual(Math.floor(system.content.length / 4));
  });

  it("keeps one history per tracker: a model's repeats share it, another model has its own", async () => {
    const tracker = new PrefixTracker();
    const prompt = "The same long prompt, sent twice.";
    await trackPrefixes(new EchoModel(), tracker).complete({ stage: "solver", prompt });
    const again = await trackPrefixes(new EchoModel(), tracker).complete({ stage: "solver", prompt });
    const elsewhere = await trackPrefixes(new EchoModel(), new PrefixTracker()).complete({ stage: "solver", prompt });
    expect(again.sharedPrefixTokens).toBe(Math.floor(prompt.length / 4));
    expect(elsewhere.sharedPrefixTokens).toBe(0);
  });
});
