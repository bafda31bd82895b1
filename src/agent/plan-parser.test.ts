import { describe, expect, it } from "vitest";
import { parsePlan } from "./plan-parser.ts";
import { defineTool, SAMPLE_TOOLS } from "./testing/definitions.ts";
import type { PlanStep } from "./types.ts";

const TOOLS = [
  ...SAMPLE_TOOLS,
  defineTool("bfcl", "math.factorial", "Factorial of n.", { n: { type: "integer" } }, ["n"]),
];

type Expected = Partial<PlanStep>;

describe("parsePlan", () => {
  it.each<[string, string, Expected[]]>([
    [
      "named arguments",
      '#E1 = list_issues(owner="acme", repo="webapp")',
      [{ id: "#E1", tool: "list_issues", args: { owner: "acme", repo: "webapp" }, dependsOn: [] }],
    ],
    [
      "single quotes and escapes",
      "#E1 = issue_write(method='create', owner=\"acme\", repo='webapp', title='It\\'s \"broken\"\\n')",
      [{ args: { method: "create", owner: "acme", repo: "webapp", title: 'It\'s "broken"\n' } }],
    ],
    [
      "positional arguments map onto required parameters in order",
      '#E1 = issue_read("get", "acme", "webapp", 42)',
      [{ args: { method: "get", owner: "acme", repo: "webapp", issue_number: 42 } }],
    ],
    [
      "positional after named fill the parameters not named",
      '#E1 = list_issues("webapp", owner="acme")',
      [{ args: { owner: "acme", repo: "webapp" } }],
    ],
    [
      "numbers, booleans and null, Python spellings too",
      "#E1 = issue_write(method=create, owner=acme, repo=webapp, issue_number=-3.5e1, title=None, body=True)",
      [{ args: { method: "create", owner: "acme", repo: "webapp", issue_number: -35, title: null, body: true } }],
    ],
    [
      "nested JSON arrays and objects",
      '#E1 = issue_write(method="create", owner="a", repo="b", labels=["bug", \'p1\'], meta={"k": [1, {"x": null}], y: \'z\',})',
      [
        {
          args: {
            method: "create",
            owner: "a",
            repo: "b",
            labels: ["bug", "p1"],
            meta: { k: [1, { x: null }], y: "z" },
          },
        },
      ],
    ],
    ["dotted tool names", "#E1 = math.factorial(n=5)", [{ tool: "math.factorial", args: { n: 5 } }]],
    [
      "a list of calls after one header is one step per call, numbered on",
      '#E1 = [math.factorial(n=5), list_issues(owner="acme", repo="webapp"),  math.factorial(n=7)]',
      [
        { id: "#E1", tool: "math.factorial", args: { n: 5 } },
        { id: "#E2", tool: "list_issues", args: { owner: "acme", repo: "webapp" } },
        { id: "#E3", tool: "math.factorial", args: { n: 7 } },
      ],
    ],
    [
      "Python tuples are read as lists",
      '#E1 = issue_write(method="create", owner="a", repo="b", labels=("bug", \'p1\'))',
      [{ args: { method: "create", owner: "a", repo: "b", labels: ["bug", "p1"] } }],
    ],
    [
      "prose around the calls",
      'Here is the plan:\n#E1 = get_me()\nThis gets the user.\n#E2 = list_issues(owner=#E1.login, repo="webapp")\nDone!',
      [
        { id: "#E1", tool: "get_me", args: {} },
        { id: "#E2", tool: "list_issues", args: { owner: "#E1.login", repo: "webapp" }, dependsOn: ["#E1"] },
      ],
    ],
    [
      "colon headers and colon arguments",
      '#E1: list_issues(owner: "acme", "repo": "webapp")',
      [{ tool: "list_issues", args: { owner: "acme", repo: "webapp" } }],
    ],
    [
      "a repeated prefix from the prompt",
      '#E1 = #E1 = list_issues(owner="acme", repo="webapp")',
      [{ id: "#E1", tool: "list_issues" }],
    ],
    [
      "markdown fences",
      '```\n#E1 = get_me()\n#E2 = slack_post_message(channel_id="C01", text=#E1)\n```',
      [
        { tool: "get_me" },
        { tool: "slack_post_message", args: { channel_id: "C01", text: "#E1" }, dependsOn: ["#E1"] },
      ],
    ],
    [
      "calls without headers are numbered in order (known tools only)",
      'First I call get_me() and then list_issues(owner="acme", repo="webapp"); print(done)',
      [
        { id: "#E1", tool: "get_me" },
        { id: "#E2", tool: "list_issues" },
      ],
    ],
    [
      "a reference to a later step is allowed",
      '#E1 = slack_post_message(channel_id="C01", text=#E2.login)\n#E2 = get_me()',
      [{ id: "#E1", dependsOn: ["#E2"] }, { id: "#E2" }],
    ],
    [
      "a header inside a string argument is text",
      '#E1 = get_me()\n#E2 = slack_post_message(channel_id="C01", text="me: #E1 = get_me() said so")',
      [
        { id: "#E1" },
        { id: "#E2", args: { channel_id: "C01", text: "me: #E1 = get_me() said so" }, dependsOn: ["#E1"] },
      ],
    ],
    [
      "camelCase spelling satisfies a required snake_case parameter",
      '#E1 = issue_read(method="get", owner="a", repo="b", issueNumber=1)',
      [{ args: { method: "get", owner: "a", repo: "b", issueNumber: 1 } }],
    ],
  ])("%s", (_, text, expected) => {
    const { steps } = parsePlan(text, TOOLS);
    expect(steps).toHaveLength(expected.length);
    expected.forEach((step, index) => {
      expect(steps[index]).toMatchObject(step);
      expect(steps[index]?.error).toBeUndefined();
    });
  });

  it.each<[string, string, Expected[]]>([
    ["unknown tool", '#E1 = list_repos(owner="acme")', [{ tool: "list_repos", error: 'unknown tool "list_repos"' }]],
    [
      "missing required parameters",
      '#E1 = issue_write(owner="acme", title="x")',
      [{ missing: ["method", "repo"], error: "missing required parameter(s): method, repo" }],
    ],
    ["an empty value counts as missing", '#E1 = list_issues(owner="acme", repo="")', [{ missing: ["repo"] }]],
    [
      "a call cut off by the token limit",
      '#E1 = list_issues(owner="acme", repo="web',
      [{ tool: "list_issues", error: 'syntax: unterminated string starting "web"; call is not closed with )' }],
    ],
    [
      "too many positional arguments",
      '#E1 = list_issues("a", "b", "OPEN", "extra")',
      [{ error: "1 positional argument(s) beyond the tool's parameters" }],
    ],
    [
      "a reference to a step that does not exist",
      '#E1 = list_issues(owner=#E7.login, repo="x")',
      [{ error: "unknown reference #E7" }],
    ],
    ["a step that refers to itself", '#E1 = list_issues(owner=#E1, repo="x")', [{ error: "#E1 refers to itself" }]],
  ])("flags %s", (_, text, expected) => {
    const { steps } = parsePlan(text, TOOLS);
    expect(steps).toMatchObject(expected);
  });

  it("removes duplicate steps and points their references at the one kept", () => {
    const { steps, notes } = parsePlan(
      '#E1 = get_me()\n#E2 = get_me( )\n#E3 = issue_write(method="create", owner="a", repo="b", title=#E2.login)',
      TOOLS,
    );
    expect(steps.map((step) => step.id)).toEqual(["#E1", "#E3"]);
    expect(steps[1]).toMatchObject({ args: { title: "#E1.login" }, dependsOn: ["#E1"] });
    expect(notes).toEqual(["#E2 repeats #E1: dropped"]);
  });

  it("renumbers a step id used twice", () => {
    const { steps, notes } = parsePlan('#E1 = get_me()\n#E1 = list_issues(owner="a", repo="b")', TOOLS);
    expect(steps.map((step) => [step.id, step.tool])).toEqual([
      ["#E1", "get_me"],
      ["#E2", "list_issues"],
    ]);
    expect(notes).toEqual(["#E1 appeared twice: the second is #E2"]);
  });

  it.each(["", "I cannot help with that.", "#E1 =", "#E1 = nothing here", "))))((((", "#E1 = (", 'tool("x")'])(
    "returns no runnable step for %j",
    (text) => {
      const { steps } = parsePlan(text, TOOLS);
      expect(steps.every((step) => step.error !== undefined)).toBe(true);
    },
  );
});
