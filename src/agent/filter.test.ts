import { describe, expect, it } from "vitest";
import { filterTools, queryTerms, rankTools, scoreTool } from "./filter.ts";
import { defineTool, SAMPLE_TOOLS } from "./testing/definitions.ts";

const pullRequests = defineTool("github", "list_pull_requests", "List pull requests in a GitHub repository.", {});

describe("tool scores", () => {
  it.each([
    // name words: list(5) pull(5) request(5); description words: list pull request (3 × 1.5)
    ["list pull requests", 19.5],
    // synonyms: PRs → pull, request; repo → repository (description word 1.5)
    ["list PRs in my repo", 5 + 5 + 5 + 1.5 * 3 + 1.5],
    // substring hit: "pull" inside the name is a whole word; "req" is too short; "quest" inside "requests"
    ["quest", 3],
    // description only: "github" (1.5)
    ["github", 1.5],
    ["weather tomorrow", 0],
  ])("%s → %d", (query, score) => {
    expect(scoreTool(pullRequests, queryTerms(query))).toBe(score);
  });

  it.each([
    ["DM the team", "slack_post_message"],
    ["send a message to general", "slack_post_message"],
    ["merge PR 7", "merge_pull_request"],
    ["schedule a meeting", "create-event"],
    ["search the web for news", "tavily_search"],
    ["read notes.txt", "read_text_file"],
    ["show my github login", "get_me"],
  ])("%s ranks %s first", (query, best) => {
    expect(rankTools(query, SAMPLE_TOOLS)[0]?.name).toBe(best);
  });

  it("expands synonyms into query terms", () => {
    expect([...queryTerms("my PRs and DMs in the repo")]).toEqual(
      expect.arrayContaining(["pull", "request", "direct", "message", "repository"]),
    );
  });
});

describe("filterTools", () => {
  it("keeps the top N in rank order; ties keep connection order", () => {
    const { tools, scores } = filterTools("list issues", SAMPLE_TOOLS, 3);
    expect(tools.map((tool) => tool.name)).toEqual(["list_issues", "issue_write", "issue_read"]);
    expect(scores).toHaveLength(SAMPLE_TOOLS.length);
  });

  it('"all" keeps every tool', () => {
    expect(filterTools("anything", SAMPLE_TOOLS, "all").tools).toHaveLength(SAMPLE_TOOLS.length);
  });
});

describe("rankTools, asked again", () => {
  it("ranks another tool list afresh for the same query, and hands out copies", () => {
    const query = "list the open issues of the repo";
    const first = rankTools(query, SAMPLE_TOOLS);
    first[0]!.score = -1;
    first.reverse();
    expect(rankTools(query, SAMPLE_TOOLS)[0]).toEqual({ name: "list_issues", score: expect.any(Number) });
    expect(rankTools(query, SAMPLE_TOOLS)[0]!.score).toBeGreaterThan(0);

    // a different list (a tool more, with a better name) under the same query is its own ranking
    const better = defineTool("github", "list_open_issues_of_repo", "List the open issues of a repository.", {});
    const widened = [...SAMPLE_TOOLS, better];
    expect(rankTools(query, widened)[0]!.name).toBe("list_open_issues_of_repo");
    expect(rankTools(query, SAMPLE_TOOLS)[0]!.name).toBe("list_issues");
  });
});

describe("a filter that cannot tell the tools apart", () => {
  it("says so when it leaves tools out and every tool scored 0", () => {
    const blind = filterTools("Remember that Ana lives in Porto", SAMPLE_TOOLS, 3);
    expect(blind.scores.every((entry) => entry.score === 0)).toBe(true);
    expect(blind.tools.map((tool) => tool.name)).toEqual(SAMPLE_TOOLS.slice(0, 3).map((tool) => tool.name));
    expect(blind.blind).toBe(true);
    expect(filterTools("Remember that Ana lives in Porto", SAMPLE_TOOLS, "all").blind).toBeUndefined();
    expect(filterTools("list issues", SAMPLE_TOOLS, 3).blind).toBeUndefined();
    expect(filterTools("Remember that Ana lives in Porto", SAMPLE_TOOLS, 3, "always").blind).toBe(true);
  });
});
