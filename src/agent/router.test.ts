import { describe, expect, it } from "vitest";
import { applyRouterAnswer, needsRoutingLlm, parseRouterAnswer, routeByRules } from "./router.ts";
import { SAMPLE_TOOLS } from "./testing/definitions.ts";

describe("routeByRules", () => {
  it.each([
    ["What can you do?", "DIRECT", "meta"],
    ["hello!", "DIRECT", "meta"],
    ["help", "DIRECT", "meta"],
    ["Who are you?", "DIRECT", "meta"],
    ["What tools do you have?", "DIRECT", "meta"],
    ["What is the capital of France?", "DIRECT", "no-relevance"],
    ["Compose a haiku about autumn", "DIRECT", "no-relevance"],
    ["Search the web for MCP news", "REACT", "exploratory"],
    ["Find the issues about login in acme/webapp", "REACT", "exploratory"],
    ["Look up the channels and tell me which is busiest", "REACT", "exploratory"],
    ["List the issues in acme/webapp, then post a summary to C01GENERAL", "REWOO", "sequence"],
    ["First get my user, after that list my pull requests", "REWOO", "sequence"],
    ["List open issues in acme/webapp", "REWOO", "default"],
    ["Merge PR 7 in acme/webapp", "REWOO", "default"],
    ["DM the team", "REWOO", "default"],
  ])("%s → %s (%s)", (query, route, rule) => {
    expect(routeByRules(query, SAMPLE_TOOLS)).toMatchObject({ route, rule, llmAsked: false });
  });

  it("says DIRECT with no tools connected, and does not ask the model then", () => {
    const decision = routeByRules("List open issues in acme/webapp", []);
    expect(decision).toMatchObject({ route: "DIRECT", rule: "no-tools" });
    expect(needsRoutingLlm(decision)).toBe(false);
  });

  it("asks the model only for a no-relevance DIRECT", () => {
    expect(needsRoutingLlm(routeByRules("What is the capital of France?", SAMPLE_TOOLS))).toBe(true);
    expect(needsRoutingLlm(routeByRules("What can you do?", SAMPLE_TOOLS))).toBe(false);
    expect(needsRoutingLlm(routeByRules("List open issues in acme/webapp", SAMPLE_TOOLS))).toBe(false);
  });
});

describe("router model answer", () => {
  it.each([
    ["ACTION", "ACTION"],
    [" action.", "ACTION"],
    ["DIRECT", "DIRECT"],
    ["I think DIRECT is right", "DIRECT"],
    ["maybe", "unclear"],
    ["", "unclear"],
  ])("%j → %s", (text, expected) => {
    expect(parseRouterAnswer(text)).toBe(expected);
  });

  it("ACTION re-enters the rules after relevance; exploratory words still pick REACT", () => {
    const base = routeByRules("explore how busy we are", SAMPLE_TOOLS);
    expect(applyRouterAnswer("explore how busy we are", base, "ACTION")).toMatchObject({
      route: "REACT",
      rule: "llm",
      llmAsked: true,
      llmAnswer: "ACTION",
    });
    expect(applyRouterAnswer("how busy are we", base, "unclear")).toMatchObject({
      route: "DIRECT",
      llmAnswer: "unclear",
    });
  });
});
