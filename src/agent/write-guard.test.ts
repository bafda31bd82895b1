import { describe, expect, it } from "vitest";
import { defineTool } from "./testing/definitions.ts";
import { FakeToolHost, succeed } from "./testing/fake-host.ts";
import { testRig } from "./testing/rig.ts";
import { isWriteTool, WriteGuard } from "./write-guard.ts";

describe("isWriteTool", () => {
  it.each([
    ["slack_post_message", { readOnlyHint: false, destructiveHint: false }, true],
    ["issue_write", { readOnlyHint: false }, true],
    ["API-post-page", {}, true],
    ["create-event", {}, true],
    ["mergePullRequest", {}, true],
    // annotated destructive, whatever the name
    ["frobnicate", { destructiveHint: true }, true],
    // read-only wins over a write-like name (Notion's search is a POST)
    ["API-post-search", { readOnlyHint: true }, false],
    ["list_issues", {}, false],
    ["frobnicate", { readOnlyHint: false }, false],
  ])("%s %j → %s", (name, annotations, expected) => {
    expect(isWriteTool(defineTool("x", name, "", {}, [], annotations))).toBe(expected);
  });
});

describe("write guard in the tool runner", () => {
  const tools = [
    defineTool("slack", "slack_post_message", "Post.", {}, [], { readOnlyHint: false, destructiveHint: false }),
    defineTool("slack", "slack_list_channels", "List.", {}),
  ];

  it("lets a write succeed once, then blocks it and records the block; reads are never blocked", async () => {
    const host = new FakeToolHost(tools, {
      slack_post_message: () => succeed({ ok: true }),
      slack_list_channels: () => succeed({}),
    });
    const { runner, guard } = testRig(host);
    const call = (tool: string, guarded = true) =>
      runner.call({ stage: "react", tool, args: { text: "hi" }, prepare: false, guarded });
    const first = await call("slack_post_message");
    const second = await call("slack_post_message");
    await call("slack_list_channels");
    await call("slack_list_channels");
    expect(first.ok).toBe(true);
    expect(second).toMatchObject({ ok: false, blocked: true, attempts: [] });
    expect(second.text).toContain("already succeeded in this query (call 1)");
    expect(guard.blocked).toEqual([
      { tool: "slack_post_message", args: { text: "hi" }, stage: "react", firstCallSeq: 1 },
    ]);
    expect(host.calls.map((c) => c.name)).toEqual(["slack_post_message", "slack_list_channels", "slack_list_channels"]);
  });

  it("a failed write does not count; unguarded calls (the plan executor) are not blocked but are counted", async () => {
    let attempts = 0;
    const host = new FakeToolHost(tools, {
      slack_post_message: () => {
        attempts += 1;
        return attempts === 1 ? { ok: false, kind: "tool_error", message: "channel_not_found" } : succeed({ ok: true });
      },
    });
    const { runner } = testRig(host);
    const call = (guarded: boolean) =>
      runner.call({ stage: "executor", tool: "slack_post_message", args: {}, prepare: false, guarded });
    expect((await call(true)).ok).toBe(false);
    expect((await call(false)).ok).toBe(true);
    expect((await call(false)).ok).toBe(true);
    expect(await call(true)).toMatchObject({ blocked: true });
  });
});

describe("WriteGuard over one tool list", () => {
  const tools = [
    defineTool("slack", "slack_post_message", "Post.", {}, [], { readOnlyHint: false }),
    defineTool("slack", "slack_list_channels", "List.", {}, [], { readOnlyHint: true }),
  ];

  it("keeps each query's successes to itself while the list's write tools are found once", () => {
    const first = new WriteGuard(tools);
    const second = new WriteGuard(tools);
    first.recordSuccess("slack_post_message", { text: "hi" }, 1, "ok", false);
    first.recordSuccess("slack_list_channels", {}, 2, "ok", false);
    expect(first.blockingCall("slack_post_message", { text: "hi" })?.seq).toBe(1);
    expect(first.blockingCall("slack_list_channels", {})).toBeUndefined();
    expect(second.blockingCall("slack_post_message", { text: "hi" })).toBeUndefined();
  });
});
