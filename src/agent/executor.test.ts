import { describe, expect, it } from "vitest";
import { executePlan, missingFromMessage } from "./executor.ts";
import { parsePlan } from "./plan-parser.ts";
import { SAMPLE_TOOLS } from "./testing/definitions.ts";
import { FakeToolHost, fail, succeed } from "./testing/fake-host.ts";
import { testRig } from "./testing/rig.ts";

function setup(handlers: ConstructorParameters<typeof FakeToolHost>[1], delayMs = 0) {
  const host = new FakeToolHost(SAMPLE_TOOLS, handlers, delayMs);
  const { runner, recorder } = testRig(host);
  const execute = (plan: string, round = 0) =>
    executePlan({ steps: parsePlan(plan, SAMPLE_TOOLS).steps, runner, round });
  return { host, recorder, execute };
}

describe("executePlan", () => {
  it("runs a wave of independent steps concurrently", async () => {
    const { host, execute } = setup({ list_issues: (args) => succeed({ repo: args.repo }) }, 20);
    const run = await execute(
      '#E1 = list_issues(owner="a", repo="one")\n#E2 = list_issues(owner="a", repo="two")\n#E3 = list_issues(owner="a", repo="three")',
    );
    expect(run.waves).toEqual([["#E1", "#E2", "#E3"]]);
    expect(host.maxInFlight).toBe(3);
    expect(run.ok).toBe(true);
  });

  it("runs dependent steps one wave after another, with references replaced", async () => {
    const { host, execute } = setup(
      {
        get_me: () => succeed({ login: "octo" }),
        list_issues: () => succeed({ issues: [{ number: 4, title: "Bug" }] }),
        issue_read: (args) => succeed({ number: args.issue_number }),
      },
      5,
    );
    const run = await execute(
      '#E1 = get_me()\n#E2 = list_issues(owner=#E1.login, repo="web")\n#E3 = issue_read(method="get", owner=#E1.login, repo="web", issue_number=#E2.issues[0].number)',
    );
    expect(run.waves).toEqual([["#E1"], ["#E2"], ["#E3"]]);
    expect(host.maxInFlight).toBe(1);
    expect(host.calls.map((call) => call.args)).toEqual([
      {},
      { owner: "octo", repo: "web" },
      { method: "get", owner: "octo", repo: "web", issue_number: 4 },
    ]);
  });

  it("normalises keys and coerces types from the schema before the call", async () => {
    const { host, recorder, execute } = setup({ issue_read: () => succeed({}) });
    await execute('#E1 = issue_read(method="get", owner="a", repo="b", issueNumber="12")');
    expect(host.calls[0]?.args).toEqual({ method: "get", owner: "a", repo: "b", issue_number: 12 });
    expect(recorder.toolCalls[0]).toMatchObject({
      renamed: ["issueNumber→issue_number"],
      coerced: ["issue_number: string→number"],
      argsPlanned: { issueNumber: "12" },
    });
  });

  it("returns failures as strings and skips the steps that depend on them", async () => {
    const { host, execute } = setup({
      get_me: () => fail("tool_error", "not_found: no user"),
      slack_list_channels: () => succeed({ channels: [] }),
    });
    const run = await execute(
      '#E1 = get_me()\n#E2 = slack_post_message(channel_id="C1", text=#E1.login)\n#E3 = slack_list_channels()',
    );
    expect(run.ok).toBe(false);
    expect(run.outcomes.map((o) => [o.id, o.status, o.text])).toEqual([
      ["#E1", "error", "not_found: no user"],
      ["#E2", "skipped", "ERROR: depends on #E1, which failed"],
      ["#E3", "ok", '{"channels":[]}'],
    ]);
    expect(host.calls.map((call) => call.name)).toEqual(["get_me", "slack_list_channels"]);
  });

  it("does not call a step that failed validation, and carries its missing parameters", async () => {
    const { host, execute } = setup({});
    const run = await execute('#E1 = issue_write(owner="a", repo="b")');
    expect(run.outcomes[0]).toMatchObject({ status: "skipped", missing: ["method"] });
    expect(host.calls).toEqual([]);
  });

  it("takes missing parameters from the error data, or else from its message", async () => {
    const { execute } = setup({
      list_issues: () => fail("invalid_params", "list_issues: missing required parameter: repo", ["repo"]),
      slack_list_channels: () => fail("invalid_params", "must have required property 'limit'"),
    });
    const run = await execute('#E1 = list_issues(owner="a", repo="b")\n#E2 = slack_list_channels()');
    expect(run.outcomes.map((outcome) => outcome.missing)).toEqual([["repo"], ["limit"]]);
  });

  it("skips a step whose reference does not resolve", async () => {
    const { execute } = setup({ get_me: () => succeed({ login: "octo" }) });
    const run = await execute('#E1 = get_me()\n#E2 = list_issues(owner=#E1.name, repo="b")');
    expect(run.outcomes[1]).toMatchObject({
      status: "skipped",
      error: 'cannot resolve references: #E1.name: no "name"',
    });
  });

  it("reuses successful outcomes of an earlier round instead of calling again", async () => {
    const host = new FakeToolHost(SAMPLE_TOOLS, { get_me: () => succeed({ login: "x" }) });
    const { runner } = testRig(host);
    const steps = parsePlan("#E1 = get_me()", SAMPLE_TOOLS).steps;
    const first = await executePlan({ steps, runner, round: 0 });
    const second = await executePlan({ steps, runner, round: 1, reuse: new Map([["#E1", first.outcomes[0]!]]) });
    expect(second.outcomes[0]).toMatchObject({ status: "ok", round: 1, reused: true, value: { login: "x" } });
    expect(host.calls).toHaveLength(1);
  });

  it("skips steps on a circular reference", async () => {
    const { execute } = setup({});
    const run = await execute('#E1 = list_issues(owner=#E2, repo="b")\n#E2 = list_issues(owner=#E1, repo="b")');
    expect(run.outcomes.map((outcome) => outcome.error)).toEqual([
      "circular reference between steps",
      "circular reference between steps",
    ]);
  });
});

describe("missingFromMessage", () => {
  it.each([
    ["list_issues: missing required parameter: repo", ["repo"]],
    ["Missing required property 'owner'; missing required parameter: repo", ["owner", "repo"]],
    ["must have required property 'channel_id'", ["channel_id"]],
    ["`title` is required", ["title"]],
    ["not found", []],
  ])("%s", (message, expected) => {
    expect(missingFromMessage(message)).toEqual(expected);
  });
});
