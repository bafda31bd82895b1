import { describe, expect, it } from "vitest";
import { inferStage, stageOf } from "../../../../mock-servers/ollama/stage.ts";
import { buildJsonlSystemPrompt } from "../../../../src/agent/jsonl.ts";
import { buildPlannerPrompt } from "../../../../src/agent/planner.ts";
import { buildReactPrompt } from "../../../../src/agent/react.ts";
import { buildRouterPrompt } from "../../../../src/agent/router.ts";
import { buildSelectorPrompt } from "../../../../src/agent/selector.ts";
import { buildSolverPrompt } from "../../../../src/agent/solver.ts";
import { sampleTool } from "../../../../src/agent/testing/definitions.ts";
import { userPlayerMessages } from "../../../../src/bench/conversation/model-user.ts";
import { CLARIFY_CONVERSATION } from "../../../../src/bench/conversation/testing/clarify.ts";
import { STAGE_HEADER } from "../../../../src/models/http.ts";

const tools = ["list_issues", "get_me"].map(sampleTool);
const complete = (prompt: string) => inferStage({ kind: "complete", prompt });

describe("inferStage", () => {
  it("reads each completion stage from the agent's own prompts", () => {
    expect(complete(buildPlannerPrompt({ query: "Who am I?", tools }))).toBe("planner");
    expect(complete(buildReactPrompt({ query: "Find my issues", tools, turns: [] }))).toBe("react");
    expect(complete(buildReactPrompt({ query: "q", tools, turns: [], errorContext: "#E1 -> failed" }))).toBe(
      "fallback",
    );
    expect(complete(buildRouterPrompt("How many things need fixing?", tools))).toBe("router");
    expect(complete(buildSelectorPrompt({ query: "Who am I?", tools, limit: 8 }))).toBe("select");
    expect(complete(buildSolverPrompt({ query: "Capital of France?", evidence: [], dataChars: 800 }))).toBe("solver");
    expect(complete("anything else")).toBe("solver");
  });

  it("reads chat: tools or a tool conversation → native, the JSON protocol's system prompt → jsonl", () => {
    const user = { role: "user" as const, content: "q" };
    const schema = { name: "get_me", description: "me", parameters: { type: "object" as const } };
    expect(inferStage({ kind: "chat", messages: [user], tools: [schema] })).toBe("native");
    const system = { role: "system" as const, content: buildJsonlSystemPrompt(tools) };
    expect(inferStage({ kind: "chat", messages: [system, user] })).toBe("jsonl");
    const called = { role: "assistant" as const, content: "", toolCalls: [{ name: "get_me", arguments: {} }] };
    expect(inferStage({ kind: "chat", messages: [user, called, { role: "tool", content: "{}" }, user] })).toBe(
      "native",
    );
    const planner = { role: "user" as const, content: buildPlannerPrompt({ query: "Who am I?", tools }) };
    expect(inferStage({ kind: "chat", messages: [planner] })).toBe("planner");
  });

  it("reads a model playing a conversation's user (model-user.ts's prompt) as the user stage", () => {
    const messages = userPlayerMessages({
      conversation: CLARIFY_CONVERSATION,
      index: 0,
      question: "Which repository?",
    });
    expect(inferStage({ kind: "chat", messages })).toBe("user");
    expect(complete(messages.map((message) => message.content).join("\n\n"))).toBe("user");
  });

  it("takes the stage header as a hint when it names a stage", () => {
    const input = { kind: "complete" as const, prompt: "x" };
    expect(stageOf({ [STAGE_HEADER]: "router" }, input)).toBe("router");
    expect(stageOf({ [STAGE_HEADER]: "nonsense" }, input)).toBe("solver");
  });
});
