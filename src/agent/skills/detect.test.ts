import { describe, expect, it } from "vitest";
import { sampleTool } from "../testing/definitions.ts";
import { SKILLS } from "./catalog.ts";
import { detectSkill, skillRulesText } from "./detect.ts";

const tools = (...names: string[]) => names.map(sampleTool);

describe("detectSkill", () => {
  it.each([
    // one API among the active tools: the tools decide
    ["do the thing", tools("list_issues", "issue_write"), "github", "tools"],
    ["post hello", tools("slack_post_message", "slack_list_channels"), "slack", "tools"],
    ["find the roadmap", tools("API-post-search"), "notion", "tools"],
    ["latest MCP news", tools("tavily_search"), "search", "tools"],
    // several APIs: the query decides between them
    ["post the issue list to the channel", tools("list_issues", "slack_post_message"), "slack", "query"],
    ["open an issue in acme/webapp", tools("list_issues", "slack_post_message"), "github", "query"],
    // no API recognisable in the tools: the query alone
    ["calculate 12 * 7", tools("read_text_file"), "builtin", "query"],
    ["run this python script", [], "code", "query"],
  ])("%s → %s (from %s)", (query, active, name, source) => {
    expect(detectSkill(query, active)?.choice).toMatchObject({ name, source });
  });

  it("finds nothing when neither tools nor query point anywhere", () => {
    expect(detectSkill("hello there", tools("read_text_file"))).toBeNull();
  });

  it("formats the rules as a block", () => {
    const github = SKILLS.find((skill) => skill.name === "github")!;
    const text = skillRulesText(github);
    expect(text.split("\n")[0]).toBe("GitHub rules:");
    expect(text).toContain('Split "owner/repo" into owner="owner" and repo="repo"');
    expect(text).toContain('state="OPEN" or state="CLOSED"');
    expect(text).toContain("pullNumber");
  });
});
