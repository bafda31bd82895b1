import { describe, expect, it } from "vitest";
import { scoreItem } from "./score-item.ts";
import { CREATE_ISSUE, call, item, TOOLS, trace } from "./testing/fixtures.ts";
import type { TraceView } from "./types.ts";

const ALL = TOOLS.map((tool) => tool.name);
const createIssue = item({
  id: "gh-014",
  query: 'Create an issue titled "Login fails" in acme/webapp',
  calls: [CREATE_ISSUE],
  answer: { contains: ["Login fails"] },
});
const chat = item({ id: "gh-d001", category: "direct", route: "direct", calls: [] });

const shownTrace = (filtered: string[], extra: Partial<TraceView> = {}): TraceView =>
  trace({ path: "rewoo", tools: { available: ALL, filtered }, ...extra });
const score = (traceView: TraceView, of = createIssue) =>
  scoreItem({ item: of, trace: traceView, stateChecks: [], tools: TOOLS });

describe("visibility", () => {
  it("holds when the prompt listed every gold tool, and names the ones it did not", () => {
    expect(score(shownTrace(["issue_write", "list_issues"])).visibility).toEqual({
      shown: true,
      hidden: [],
      toolsShown: 2,
      toolsConnected: ALL.length,
    });
    expect(score(shownTrace(["list_issues", "issue_read"])).visibility).toMatchObject({
      shown: false,
      hidden: ["issue_write"],
    });
  });

  it("does not apply to items without gold calls, to direct answers, or to traces without a tool list", () => {
    expect(score(shownTrace([]), chat).visibility).toBeNull();
    expect(score(shownTrace([], { path: "direct" })).visibility).toBeNull();
    expect(score(trace()).visibility).toBeNull();
  });

  it("calls a needed tool the prompt hid tool_not_shown, not the model's mistake", () => {
    // the model, not shown issue_write, guessed a name and then read instead
    const hiddenRun = shownTrace(["list_issues", "issue_read"], {
      iterations: [{ action: "create_issue" }],
      toolCalls: [call(1, "list_issues", { owner: "acme", repo: "webapp" })],
      answer: "I cannot create issues with these tools.",
    });
    const hidden = score(hiddenRun);
    expect(hidden.taskSuccess).toBe(false);
    expect(hidden.failures[0]).toBe("tool_not_shown");
    expect(hidden.failures).not.toContain("hallucinated_tool");
    expect(hidden.failures).not.toContain("wrong_tool");

    // the same run with the tool shown is the model's mistake
    const shown = score({ ...hiddenRun, tools: { available: ALL, filtered: ALL } });
    expect(shown.failures).not.toContain("tool_not_shown");
    expect(shown.failures).toContain("hallucinated_tool");
  });

  it("is no failure when the model called the hidden tool anyway (a guess that hit a real name)", () => {
    const run = shownTrace(["list_issues"], {
      toolCalls: [call(1, "issue_write", CREATE_ISSUE.args as Record<string, unknown>)],
      answer: "Created issue Login fails.",
    });
    const scored = score(run);
    expect(scored.visibility?.shown).toBe(false);
    expect(scored.failures).not.toContain("tool_not_shown");
  });
});
