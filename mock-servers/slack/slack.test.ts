import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestServer, specViolations, type TestServer } from "../kit/testing/index.ts";
import channels from "./fixtures/channels.json" with { type: "json" };
import users from "./fixtures/users.json" with { type: "json" };
import { slackServer } from "./server.ts";
import type { SlackMessage, SlackState } from "./state.ts";

const channelId = (name: string) => channels.find((channel) => channel.name === name)!.id;
const userId = (name: string) => users.find((user) => user.name === name)!.id;
const GENERAL = channelId("general");
const INCIDENTS = channelId("incidents");

let server: TestServer<SlackState>;
beforeEach(async () => {
  server = await openTestServer(slackServer);
});
afterEach(async () => {
  await server.close();
});

async function history(channel: string, limit = 50): Promise<SlackMessage[]> {
  const data = await server.ok("slack_get_channel_history", { channel_id: channel, limit });
  return data.messages as SlackMessage[];
}

describe("slack mock: surface", () => {
  it("follows the kit's spec rules and lists the reference server's 8 tools", async () => {
    expect(specViolations(slackServer)).toEqual([]);
    const listed = await server.client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual([
      "slack_list_channels",
      "slack_post_message",
      "slack_reply_to_thread",
      "slack_add_reaction",
      "slack_get_channel_history",
      "slack_get_thread_replies",
      "slack_get_users",
      "slack_get_user_profile",
    ]);
    const reply = listed.tools.find((tool) => tool.name === "slack_reply_to_thread")!;
    expect(reply.inputSchema.required).toEqual(["channel_id", "thread_ts", "text"]);
  });

  it("rejects a call missing a required parameter before the handler", async () => {
    const outcome = await server.call("slack_post_message", { channel_id: GENERAL });
    expect(outcome).toMatchObject({ kind: "rpc_error", code: -32602, data: { missing: ["text"] } });
  });
});

describe("slack mock: channels and history", () => {
  it("lists the open channels with IDs and pages through them with a cursor", async () => {
    const all = await server.ok("slack_list_channels", {});
    const names = (all.channels as { name: string }[]).map((channel) => channel.name);
    expect(names).toEqual([
      "general",
      "engineering",
      "random",
      "releases",
      "design",
      "support",
      "incidents",
      "marketing",
    ]);
    expect(names).not.toContain("proj-atlas");
    expect(all.response_metadata).toEqual({ next_cursor: "" });

    const first = await server.ok("slack_list_channels", { limit: 3 });
    const cursor = (first.response_metadata as { next_cursor: string }).next_cursor;
    expect(cursor).not.toBe("");
    const second = await server.ok("slack_list_channels", { limit: 3, cursor });
    expect((second.channels as { name: string }[]).map((channel) => channel.name)).toEqual([
      "releases",
      "design",
      "support",
    ]);
    expect(await server.call("slack_list_channels", { cursor: "bm9wZTp4" })).toMatchObject({
      kind: "tool_error",
      text: expect.stringContaining("invalid_cursor"),
    });
  });

  it("returns top-level history newest first, with thread metadata, and honours limit", async () => {
    const messages = await history(INCIDENTS);
    expect(messages.map((message) => message.text.slice(0, 10))).toEqual(["Postmortem", "SEV2: API "]);
    expect(messages[1]).toMatchObject({ reply_count: 3, reply_users_count: 2 });
    const limited = await server.ok("slack_get_channel_history", { channel_id: GENERAL, limit: 2 });
    expect(limited.messages).toHaveLength(2);
    expect(limited.has_more).toBe(true);
  });

  it("answers channel_not_found for a channel name or an unknown ID", async () => {
    for (const channel_id of ["#general", "general", "C0NOTREAL99"]) {
      const outcome = await server.call("slack_get_channel_history", { channel_id });
      expect(outcome).toMatchObject({ kind: "tool_error", text: expect.stringContaining("channel_not_found") });
    }
    const named = await server.call("slack_post_message", { channel_id: "#general", text: "hi" });
    expect(named.kind === "tool_error" && named.text).toContain("not a name");
  });
});

describe("slack mock: writes", () => {
  it("posts as the bot with timestamps from the fixed clock and a counter", async () => {
    const first = await server.ok("slack_post_message", { channel_id: GENERAL, text: "Deploy starts at 10:00" });
    expect(first).toMatchObject({ ok: true, channel: GENERAL, ts: "1773653400.000100" });
    expect(first.message).toMatchObject({ user: "U07ONSETBOT", bot_id: "B07ONSET01", text: "Deploy starts at 10:00" });
    const second = await server.ok("slack_post_message", { channel_id: GENERAL, text: "Done" });
    expect(second.ts).toBe("1773653400.000200");
    expect((await history(GENERAL, 1))[0]?.text).toBe("Done");
  });

  it("refuses to post into an archived channel or with empty text", async () => {
    const archived = await server.call("slack_post_message", { channel_id: channelId("proj-atlas"), text: "hello" });
    expect(archived).toMatchObject({ kind: "tool_error", text: expect.stringContaining("is_archived") });
    const empty = await server.call("slack_post_message", { channel_id: GENERAL, text: "  " });
    expect(empty).toMatchObject({ kind: "tool_error", text: expect.stringContaining("no_text") });
  });

  it("replies into a thread, counts the reply on the parent, and files a reply-to-a-reply under the parent", async () => {
    const [, sev2] = await history(INCIDENTS);
    const reply = await server.ok("slack_reply_to_thread", {
      channel_id: INCIDENTS,
      thread_ts: sev2!.ts,
      text: "Postmortem review is booked for Wednesday.",
    });
    expect(reply.message).toMatchObject({ thread_ts: sev2!.ts, parent_user_id: userId("dave") });

    const thread = await server.ok("slack_get_thread_replies", { channel_id: INCIDENTS, thread_ts: sev2!.ts });
    const threadMessages = thread.messages as SlackMessage[];
    expect(threadMessages).toHaveLength(5);
    expect(threadMessages[0]).toMatchObject({ ts: sev2!.ts, reply_count: 4, latest_reply: reply.ts });

    const nested = await server.ok("slack_reply_to_thread", {
      channel_id: INCIDENTS,
      thread_ts: threadMessages[1]!.ts,
      text: "+1",
    });
    expect((nested.message as SlackMessage).thread_ts).toBe(sev2!.ts);
  });

  it("rejects malformed and unknown thread timestamps", async () => {
    const malformed = await server.call("slack_reply_to_thread", {
      channel_id: INCIDENTS,
      thread_ts: "1773454200000000",
      text: "x",
    });
    expect(malformed).toMatchObject({ kind: "tool_error", text: expect.stringContaining("invalid_thread_ts") });
    const unknown = await server.call("slack_get_thread_replies", {
      channel_id: INCIDENTS,
      thread_ts: "1773454200.999999",
    });
    expect(unknown).toMatchObject({ kind: "tool_error", text: expect.stringContaining("thread_not_found") });
  });

  it("adds a reaction once, and refuses colons, unknown messages and repeats", async () => {
    const [latest] = await history(GENERAL, 1);
    const args = { channel_id: GENERAL, timestamp: latest!.ts, reaction: "eyes" };
    expect(await server.ok("slack_add_reaction", args)).toEqual({ ok: true });
    const [after] = await history(GENERAL, 1);
    expect(after!.reactions).toContainEqual({ name: "eyes", users: [userId("bob"), "U07ONSETBOT"], count: 2 });

    expect(await server.call("slack_add_reaction", args)).toMatchObject({
      kind: "tool_error",
      text: expect.stringContaining("already_reacted"),
    });
    const colons = await server.call("slack_add_reaction", { ...args, reaction: ":tada:" });
    expect(colons).toMatchObject({ kind: "tool_error", text: expect.stringContaining("without colons") });
    const missing = await server.call("slack_add_reaction", { ...args, timestamp: "1773653399.000001" });
    expect(missing).toMatchObject({ kind: "tool_error", text: expect.stringContaining("message_not_found") });
  });
});

describe("slack mock: users", () => {
  it("lists people only (no bots, no deactivated accounts) and pages with a cursor", async () => {
    const all = await server.ok("slack_get_users", {});
    const names = (all.users as { real_name: string }[]).map((user) => user.real_name);
    expect(names).toHaveLength(8);
    expect(names).toContain("Alice Chen");
    expect(names).not.toContain("OnsetLab Bot");
    expect(names).not.toContain("Ivan Petrov");
    const page = await server.ok("slack_get_users", { limit: 5 });
    const cursor = (page.response_metadata as { next_cursor: string }).next_cursor;
    const rest = await server.ok("slack_get_users", { limit: 5, cursor });
    expect(rest.users).toHaveLength(3);
  });

  it("returns a profile by user ID and user_not_found for a handle", async () => {
    const profile = await server.ok("slack_get_user_profile", { user_id: userId("carol") });
    expect(profile.profile).toMatchObject({
      real_name: "Carol Singh",
      email: "carol@acme.dev",
      title: "Product Designer",
    });
    const byName = await server.call("slack_get_user_profile", { user_id: "carol" });
    expect(byName).toMatchObject({ kind: "tool_error", text: expect.stringContaining("user_not_found") });
  });
});

describe("slack mock: state checks", () => {
  it("message_posted and nothing_posted fail before a post and flip after it", async () => {
    const args = { channel_id: "#engineering", text_contains: "reindex" };
    expect((await server.check("message_posted", args)).pass).toBe(false);
    expect((await server.check("nothing_posted", {})).pass).toBe(true);
    await server.ok("slack_post_message", {
      channel_id: channelId("engineering"),
      text: "The search REINDEX job ships in v2.4.0",
    });
    expect((await server.check("message_posted", args)).pass).toBe(true);
    expect((await server.check("message_posted", { ...args, channel_id: "general" })).pass).toBe(false);
    expect((await server.check("nothing_posted", {})).pass).toBe(false);
    expect((await server.check("nothing_posted", { channel_id: "general" })).pass).toBe(true);
  });

  it("fixture messages never satisfy message_posted", async () => {
    expect((await server.check("message_posted", { channel_id: "general", text_contains: "Happy Monday" })).pass).toBe(
      false,
    );
  });

  it("reply_posted and message_posted with thread_ts match replies in the named thread only", async () => {
    const [, sev2] = await history(INCIDENTS);
    const args = { channel_id: INCIDENTS, thread_ts: sev2!.ts, text_contains: "review" };
    expect((await server.check("reply_posted", args)).pass).toBe(false);
    await server.ok("slack_reply_to_thread", { ...args, text: "Review on Wednesday" });
    expect((await server.check("reply_posted", args)).pass).toBe(true);
    expect((await server.check("message_posted", args)).pass).toBe(true);
    expect((await server.check("message_posted", { channel_id: INCIDENTS, text_contains: "review" })).pass).toBe(false);
  });

  it("reaction_added fails before the reaction and passes after it", async () => {
    const [latest] = await history(GENERAL, 1);
    const args = { channel_id: "general", timestamp: latest!.ts, reaction: "white_check_mark" };
    expect((await server.check("reaction_added", args)).pass).toBe(false);
    await server.ok("slack_add_reaction", { ...args, channel_id: GENERAL });
    expect((await server.check("reaction_added", args)).pass).toBe(true);
  });
});

describe("slack mock: determinism", () => {
  it("starts identical every time and returns to the fixture state on reset", async () => {
    const other = await openTestServer(slackServer);
    const fresh = await other.dump();
    expect(await server.dump()).toEqual(fresh);
    await server.ok("slack_post_message", { channel_id: GENERAL, text: "changed" });
    expect(await server.dump()).not.toEqual(fresh);
    await server.client.callTool({ name: "__reset", arguments: {} });
    expect(await server.dump()).toEqual(fresh);
    const again = await server.ok("slack_post_message", { channel_id: GENERAL, text: "after reset" });
    expect(again.ts).toBe("1773653400.000100");
    await other.close();
  });
});
