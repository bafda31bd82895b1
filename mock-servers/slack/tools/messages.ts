import { ToolError } from "../../kit/errors.ts";
import type { ToolSpec } from "../../kit/types.ts";
import emojiFixture from "../fixtures/emoji.json" with { type: "json" };
import { findMessage, requireChannel, requireTimestamp, requireWritableChannel } from "../lookup.ts";
import { messageSchema, postResultSchema } from "../schemas.ts";
import { recordReply, type SlackMessage, type SlackState } from "../state.ts";

const KNOWN_EMOJI = new Set<string>(emojiFixture);
const THREAD_TS_DESCRIPTION =
  "The timestamp of the parent message in the format '1234567890.123456'. Timestamps in the format without the period can be converted by adding the period such that 6 numbers come after it.";

/** Next message ts: the fixed clock's seconds plus a per-state counter, e.g. "1773653400.000100". */
function nextTimestamp(state: SlackState, now: Date): string {
  state.postCounter += 1;
  return `${Math.floor(now.getTime() / 1000)}.${String(state.postCounter * 100).padStart(6, "0")}`;
}

function postAsBot(state: SlackState, channelId: string, text: string, now: Date, threadTs?: string): SlackMessage {
  const message: SlackMessage = {
    type: "message",
    ts: nextTimestamp(state, now),
    user: state.team.bot_user_id,
    text,
    team: state.team.id,
    bot_id: state.team.bot_id,
  };
  if (threadTs !== undefined) message.thread_ts = threadTs;
  state.messages[channelId] ??= [];
  state.messages[channelId].push(message);
  return message;
}

function requireText(value: unknown): string {
  const text = String(value);
  if (!text.trim()) throw new ToolError("no_text", "text must not be empty");
  return text;
}

export const postMessage: ToolSpec<SlackState> = {
  name: "slack_post_message",
  description: "Post a new message to a Slack channel",
  inputSchema: {
    type: "object",
    properties: {
      channel_id: { type: "string", description: "The ID of the channel to post to" },
      text: { type: "string", description: "The message text to post" },
    },
    required: ["channel_id", "text"],
  },
  outputSchema: postResultSchema,
  annotations: { title: "Post message", readOnlyHint: false, destructiveHint: false },
  handler: (args, { state, now }) => {
    const channel = requireWritableChannel(state, String(args.channel_id));
    const message = postAsBot(state, channel.id, requireText(args.text), now);
    state.writes.push({ kind: "message", channel: channel.id, ts: message.ts });
    return { ok: true, channel: channel.id, ts: message.ts, message: structuredClone(message) };
  },
};

export const replyToThread: ToolSpec<SlackState> = {
  name: "slack_reply_to_thread",
  description: "Reply to a specific message thread in Slack",
  inputSchema: {
    type: "object",
    properties: {
      channel_id: { type: "string", description: "The ID of the channel containing the thread" },
      thread_ts: { type: "string", description: THREAD_TS_DESCRIPTION },
      text: { type: "string", description: "The reply text" },
    },
    required: ["channel_id", "thread_ts", "text"],
  },
  outputSchema: postResultSchema,
  annotations: { title: "Reply to thread", readOnlyHint: false, destructiveHint: false },
  handler: (args, { state, now }) => {
    const channel = requireWritableChannel(state, String(args.channel_id));
    const threadTs = requireTimestamp(String(args.thread_ts), "invalid_thread_ts", "thread_ts");
    const target = findMessage(state, channel.id, threadTs);
    if (!target) {
      throw new ToolError("thread_not_found", `no message with ts ${threadTs} in #${channel.name} (${channel.id})`);
    }
    // Replying to a reply lands in the same thread, under the thread's parent.
    const parent = target.thread_ts ? (findMessage(state, channel.id, target.thread_ts) ?? target) : target;
    const reply = postAsBot(state, channel.id, requireText(args.text), now, parent.ts);
    recordReply(parent, reply);
    state.writes.push({ kind: "reply", channel: channel.id, ts: reply.ts });
    return { ok: true, channel: channel.id, ts: reply.ts, message: structuredClone(reply) };
  },
};

export const addReaction: ToolSpec<SlackState> = {
  name: "slack_add_reaction",
  description: "Add a reaction emoji to a message",
  inputSchema: {
    type: "object",
    properties: {
      channel_id: { type: "string", description: "The ID of the channel containing the message" },
      timestamp: { type: "string", description: "The timestamp of the message to react to" },
      reaction: { type: "string", description: "The name of the emoji reaction (without ::)" },
    },
    required: ["channel_id", "timestamp", "reaction"],
  },
  outputSchema: { type: "object", properties: { ok: { const: true } }, required: ["ok"] },
  annotations: { title: "Add reaction", readOnlyHint: false, destructiveHint: false },
  handler: (args, { state }) => {
    const channel = requireWritableChannel(state, String(args.channel_id));
    const ts = requireTimestamp(String(args.timestamp), "invalid_timestamp", "timestamp");
    const name = String(args.reaction);
    if (!KNOWN_EMOJI.has(name)) {
      const hint = name.includes(":") ? " (give the emoji name without colons, e.g. thumbsup)" : "";
      throw new ToolError("invalid_name", `"${name}" is not a known emoji name${hint}`);
    }
    const message = findMessage(state, channel.id, ts);
    if (!message)
      throw new ToolError("message_not_found", `no message with ts ${ts} in #${channel.name} (${channel.id})`);
    const bot = state.team.bot_user_id;
    message.reactions ??= [];
    let reaction = message.reactions.find((candidate) => candidate.name === name);
    if (reaction?.users.includes(bot)) {
      throw new ToolError("already_reacted", `the app already reacted with :${name}: to message ${ts}`);
    }
    if (!reaction) {
      reaction = { name, users: [], count: 0 };
      message.reactions.push(reaction);
    }
    reaction.users.push(bot);
    reaction.count = reaction.users.length;
    state.writes.push({ kind: "reaction", channel: channel.id, ts, reaction: name });
    return { ok: true };
  },
};

export const getThreadReplies: ToolSpec<SlackState> = {
  name: "slack_get_thread_replies",
  description: "Get all replies in a message thread",
  inputSchema: {
    type: "object",
    properties: {
      channel_id: { type: "string", description: "The ID of the channel containing the thread" },
      thread_ts: { type: "string", description: THREAD_TS_DESCRIPTION },
    },
    required: ["channel_id", "thread_ts"],
  },
  outputSchema: {
    type: "object",
    properties: {
      ok: { const: true },
      messages: { type: "array", items: messageSchema },
      has_more: { type: "boolean" },
    },
    required: ["ok", "messages", "has_more"],
  },
  annotations: { title: "Get thread replies", readOnlyHint: true },
  handler: (args, { state }) => {
    const channel = requireChannel(state, String(args.channel_id));
    const threadTs = requireTimestamp(String(args.thread_ts), "invalid_thread_ts", "thread_ts");
    const target = findMessage(state, channel.id, threadTs);
    if (!target) {
      throw new ToolError("thread_not_found", `no message with ts ${threadTs} in #${channel.name} (${channel.id})`);
    }
    // conversations.replies: the parent first, then its replies oldest first.
    const parentTs = target.thread_ts ?? target.ts;
    const thread = (state.messages[channel.id] ?? []).filter(
      (message) => message.ts === parentTs || message.thread_ts === parentTs,
    );
    return { ok: true, messages: structuredClone(thread), has_more: false };
  },
};
