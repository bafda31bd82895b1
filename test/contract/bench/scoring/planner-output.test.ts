import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { githubServer } from "../../../../mock-servers/github/server.ts";
import { DATASETS_DIR, loadDataset } from "../../../../src/bench/dataset/load.ts";
import type { DatasetItem } from "../../../../src/bench/dataset/types.ts";
import { readPlanText } from "../../../../src/bench/scoring/plan-text.ts";
import { classifyPlannerOutput, type PlannerErrorType } from "../../../../src/bench/scoring/planner-output.ts";
import { CREATE_ISSUE, item, TOOLS } from "../../../../src/bench/scoring/testing/fixtures.ts";

const createIssue = item({ id: "gh-014", calls: [CREATE_ISSUE] });
const listThenRead = item({
  id: "gh-040",
  category: "sequence",
  calls: [
    { tool: "list_issues", args: { owner: "acme", repo: "webapp", state: ["OPEN", ""] } },
    { tool: "issue_read", args: { method: "get", owner: "acme", repo: "webapp", issue_number: 3 } },
  ],
});
const readThenClose = item({
  id: "gh-041",
  category: "sequence",
  calls: [
    { tool: "issue_read", args: { method: "get", owner: "acme", repo: "webapp", issue_number: 3 } },
    {
      tool: "issue_write",
      args: { method: "update", owner: "acme", repo: "webapp", issue_number: 3, state: "closed" },
    },
  ],
});
const direct = item({ id: "dir-001", category: "direct", route: "direct" });
const missingTitle = item({
  id: "mi-002",
  category: "missing_info",
  route: "direct",
  forbidden: ["issue_write"],
  missing: ["title"],
});
const missingText = item({
  id: "sl-m001",
  category: "missing_info",
  route: "direct",
  servers: ["slack"],
  forbidden: ["slack_post_message"],
  missing: ["text"],
});

// Each completion continues the prompt's `#E1 =`, as the planner's output does.
const cases: [string, string, DatasetItem, PlannerErrorType[]][] = [
  ["the gold call", ' issue_write(method="create", owner="acme", repo="webapp", title="Login fails")', createIssue, []],
  [
    "values compare as BFCL strings",
    " issue_write(method='CREATE', owner='Acme', repo='web-app', title='login fails')",
    createIssue,
    [],
  ],
  [
    "a two-step plan with a reference",
    ' list_issues(owner="acme", repo="webapp")\n#E2 = issue_read(method="get", owner="acme", repo="webapp", issue_number=#E1.issues[0].number)',
    listThenRead,
    [],
  ],
  ["wrong tool", ' list_issues(owner="acme", repo="webapp")', createIssue, ["wrong_tool"]],
  [
    "hallucinated tool",
    ' create_issue(owner="acme", repo="webapp", title="Login fails")',
    createIssue,
    ["hallucinated_tool"],
  ],
  [
    "missing required (schema)",
    ' issue_write(method="create", owner="acme", title="Login fails")',
    createIssue,
    ["missing_required_param"],
  ],
  [
    "missing a value the gold needs",
    ' issue_write(method="create", owner="acme", repo="webapp")',
    createIssue,
    ["missing_required_param"],
  ],
  [
    "wrong param name (camelCase)",
    ' issue_read(method="get", owner="acme", repo="webapp", issueNumber=3)',
    item({ id: "r", calls: [listThenRead.calls[1]!] }),
    ["wrong_param_name"],
  ],
  [
    "wrong param name (synonym)",
    ' issue_write(method="create", owner="acme", repository="webapp", title="Login fails")',
    createIssue,
    ["wrong_param_name"],
  ],
  [
    "merged owner/repo",
    ' issue_write(method="create", owner="acme/webapp", title="Login fails")',
    createIssue,
    ["merged_owner_repo"],
  ],
  [
    "merged owner/repo under an invented key",
    ' issue_write(method="create", repository="acme/webapp", title="Login fails")',
    createIssue,
    ["merged_owner_repo"],
  ],
  [
    "wrong value",
    ' issue_write(method="create", owner="acme", repo="webapp", title="Crash")',
    createIssue,
    ["wrong_value"],
  ],
  [
    "type error",
    ' issue_read(method="get", owner="acme", repo="webapp", issue_number="3")',
    item({ id: "r", calls: [listThenRead.calls[1]!] }),
    ["type_error"],
  ],
  [
    "positional args",
    ' issue_write("create", "acme", "webapp", title="Login fails")',
    createIssue,
    ["positional_args"],
  ],
  [
    "prose around the call",
    ' issue_write(method="create", owner="acme", repo="webapp", title="Login fails")\nThis creates the issue.',
    createIssue,
    ["prose_around_call"],
  ],
  [
    "prose before the call inside the step",
    ' I will call issue_write(method="create", owner="acme", repo="webapp", title="Login fails")',
    createIssue,
    ["prose_around_call"],
  ],
  [
    "malformed: unclosed call",
    ' issue_write(method="create", owner="acme", repo="webapp", title="Login fails"',
    createIssue,
    ["malformed_syntax"],
  ],
  [
    "malformed: missing comma",
    ' issue_write(method="create" owner="acme", repo="webapp", title="Login fails")',
    createIssue,
    ["malformed_syntax"],
  ],
  [
    "malformed: name: value",
    ' issue_write(method: "create", owner: "acme", repo: "webapp", title: "Login fails")',
    createIssue,
    ["malformed_syntax"],
  ],
  [
    "malformed: a second call without a header",
    ' list_issues(owner="acme", repo="webapp")\nissue_read(method="get", owner="acme", repo="webapp", issue_number=3)',
    listThenRead,
    ["malformed_syntax"],
  ],
  [
    "duplicate steps",
    ' issue_write(method="create", owner="acme", repo="webapp", title="Login fails")\n#E2 = issue_write(method="create", owner="acme", repo="webapp", title="Login fails")',
    createIssue,
    ["duplicate_steps"],
  ],
  ["a call on a direct item", ' calculator(expression="2+2")', direct, ["tool_call_on_direct"]],
  [
    "a direct answer where a tool was needed",
    " No tool is needed; I can answer this directly.",
    createIssue,
    ["direct_answer_when_tool_needed"],
  ],
  ["a direct answer on a direct item is right", " No tool is needed; I can answer this directly.", direct, []],
  ["missing_info: a look-up is allowed", ' list_issues(owner="acme", repo="webapp")', missingTitle, []],
  [
    "missing_info: the forbidden write is a call it should not make",
    ' issue_write(method="create", owner="acme", repo="webapp", title="Bug")',
    missingTitle,
    ["tool_call_on_direct"],
  ],
  [
    "missing_info: the forbidden write without the value the user never gave is that one mistake",
    ' slack_post_message(channel_id="C01GENERAL")',
    missingText,
    ["tool_call_on_direct"],
  ],
  [
    "missing_info: the forbidden write with no argument at all is that one mistake",
    " issue_write()",
    missingTitle,
    ["tool_call_on_direct"],
  ],
  [
    "missing_info: an allowed look-up still has its arguments checked",
    ' list_issues(owner="acme")',
    missingTitle,
    ["missing_required_param"],
  ],
  ["a call on a direct item is not also judged by its arguments", " calculator()", direct, ["tool_call_on_direct"]],
  [
    "a gold tool written with another gold call's arguments: the two tools swapped",
    ' issue_write(method="get", owner="acme", repo="webapp", issue_number=3)\n#E2 = issue_write(method="update", owner="acme", repo="webapp", issue_number=3, state="closed")',
    readThenClose,
    ["wrong_tool"],
  ],
];

describe("classifyPlannerOutput", () => {
  it.each(cases)("%s", (_name, raw, gold, expected) => {
    expect(classifyPlannerOutput(raw, gold, TOOLS).errors).toEqual(expected);
  });

  it("counts a repeated step as a duplicate only (its first occurrence carries its other mistakes)", () => {
    const result = classifyPlannerOutput(
      ' issue_write("create", "acme", "webapp")\n#E2 = issue_write("create", "acme", "webapp")',
      createIssue,
      TOOLS,
    );
    expect(result.steps.map((step) => step.errors)).toEqual([["positional_args"], ["duplicate_steps"]]);
  });

  it("a wrong value on the right tool is wrong_value, though the task's other calls share its owner and repo (gh-e010)", () => {
    const [darkModePr] = loadDataset(join(DATASETS_DIR, "github.jsonl"))
      .map((loaded) => loaded.item)
      .filter((candidate) => candidate.id === "gh-e010");
    // sim:slm-3b's plan for it (seed 1): a wrong search query, a made-up tool name, a right step.
    const raw =
      ' search_pull_requests(query="release notes", owner="acme", repo="webapp")\n' +
      '#E2 = github.pull_request_read(method="get_status", owner="acme", repo="webapp", pullNumber=12)\n' +
      '#E3 = pull_request_read(method="get_reviews", owner="acme", repo="webapp", pullNumber=12)';
    const result = classifyPlannerOutput(raw, darkModePr!, githubServer.tools);
    expect(result.steps.map((step) => step.errors)).toEqual([["wrong_value"], ["hallucinated_tool"], []]);
  });

  it("classifies per step", () => {
    const result = classifyPlannerOutput(
      ' list_issues(owner="acme", repo="webapp")\n#E2 = issue_read(method="get", owner="acme", repo="webapp", issue_number=4)',
      listThenRead,
      TOOLS,
    );
    expect(result.steps).toEqual([
      { id: "#E1", tool: "list_issues", errors: [] },
      { id: "#E2", tool: "issue_read", errors: ["wrong_value"] },
    ]);
  });
});

describe("readPlanText", () => {
  const isTool = (name: string) => TOOLS.some((tool) => tool.name === name);

  it("reads values as Python literals, references and JSON words included", () => {
    const text = readPlanText(
      ' issue_write(method="create", labels=["a", \'b\'], n=-3, ok=true, none=None, data={"k": 1.5}, ref=#E2.items[0].id, word=open)',
      isTool,
    );
    expect(text.prose).toEqual([]);
    expect(text.steps).toEqual([
      {
        id: "#E1",
        tool: "issue_write",
        named: {
          method: "create",
          labels: ["a", "b"],
          n: -3,
          ok: true,
          none: null,
          data: { k: 1.5 },
          ref: "#E2.items[0].id",
          word: "open",
        },
        positional: [],
        malformed: null,
        incomplete: false,
        unreadable: [],
        firstPositional: false,
        text: 'issue_write(method="create", labels=["a", \'b\'], n=-3, ok=true, none=None, data={"k": 1.5}, ref=#E2.items[0].id, word=open)',
      },
    ]);
  });

  it("keeps strings with commas, parentheses and # intact, and reads a repeated header once", () => {
    const text = readPlanText(' #E1 = slack_post_message(channel_id="C1", text="Hi (all), see #general")', isTool);
    expect(text.steps).toHaveLength(1);
    expect(text.steps[0]?.named).toEqual({ channel_id: "C1", text: "Hi (all), see #general" });
    expect(text.prose).toEqual([]);
  });

  it("an unclosed call stops at the next header", () => {
    const text = readPlanText(' get_me(\n#E2 = list_issues(owner="a", repo="b")', isTool);
    expect(text.steps.map((step) => [step.tool, step.malformed !== null])).toEqual([
      ["get_me", true],
      ["list_issues", false],
    ]);
  });
});
