import { describe, expect, it } from "vitest";
import { buildSelectorPrompt, parseSelectorAnswer } from "../../../../src/agent/selector.ts";
import { sampleTool } from "../../../../src/agent/testing/definitions.ts";
import { SimEngine } from "../../../../src/models/sim/engine.ts";
import type { SimGoldItem } from "../../../../src/models/sim/gold.ts";

const tools = ["list_issues", "issue_read", "issue_write", "get_me", "list_pull_requests"].map(sampleTool);
const item: SimGoldItem = {
  id: "select-1",
  query: "Close the issue about the login crash in acme/webapp",
  category: "multi",
  route: "rewoo",
  calls: [
    { tool: "list_issues", args: { owner: "acme", repo: "webapp" } },
    { tool: "issue_write", args: { method: "update" } },
  ],
  order: "sequence",
};
const request = (query: string, shown = tools) => ({
  kind: "complete" as const,
  stage: "select" as const,
  prompt: buildSelectorPrompt({ query, tools: shown, limit: 3 }),
});

describe("the select stage", () => {
  it("the oracle names the gold tools the prompt lists, each once, and the agent's parser reads them", () => {
    const answer = new SimEngine({ profile: "oracle", gold: [item] }).respond(request(item.query));
    expect(answer.analysis.protocol).toBe("select");
    expect(parseSelectorAnswer(answer.text, tools, 3)).toEqual(["list_issues", "issue_write"]);
  });

  it("names no tool the prompt does not list, and answers `none` for an unknown request", () => {
    const engine = new SimEngine({ profile: "oracle", gold: [item] });
    const shown = tools.filter((tool) => tool.name !== "list_issues");
    expect(engine.respond(request(item.query, shown)).text).toBe("issue_write");
    expect(engine.respond(request("something nobody asked")).text).toBe("none");
  });

  it("a small profile sometimes names another shown tool or a made-up one, at its error rates", () => {
    const chaos = new SimEngine({ profile: "chaos", gold: [item] });
    const picks = Array.from({ length: 60 }, (_, seed) =>
      parseSelectorAnswer(
        new SimEngine({ profile: "chaos", seed, gold: [item] }).respond(request(item.query)).text,
        tools,
        3,
      ),
    );
    const exact = picks.filter((names) => names.join() === "list_issues,issue_write").length;
    expect(exact).toBeGreaterThan(0);
    expect(exact).toBeLessThan(picks.length);
    expect(chaos.analyse(request(item.query)).rates.calls[0]?.missing_required_param).toBe(0);
  });
});
