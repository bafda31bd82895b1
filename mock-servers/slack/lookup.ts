import { ToolError } from "../kit/errors.ts";
import type { SlackChannel, SlackMessage, SlackState, SlackUser } from "./state.ts";

const TS_PATTERN = /^\d{10}\.\d{6}$/;

/** A channel by ID only, as the Web API resolves it: names such as "#general" are not found. */
export function requireChannel(state: SlackState, channelId: string): SlackChannel {
  const channel = state.channels.find((candidate) => candidate.id === channelId);
  if (channel) return channel;
  const hint = /^[CGD][A-Z0-9]{8,12}$/.test(channelId)
    ? "use slack_list_channels to see the channels this app can access"
    : "channel_id must be a channel ID such as C0123ABCD, not a name; look IDs up with slack_list_channels";
  throw new ToolError("channel_not_found", `no channel with ID "${channelId}" (${hint})`);
}

export function requireWritableChannel(state: SlackState, channelId: string): SlackChannel {
  const channel = requireChannel(state, channelId);
  if (channel.is_archived) throw new ToolError("is_archived", `channel #${channel.name} (${channel.id}) is archived`);
  return channel;
}

export function requireTimestamp(value: string, errorCode: string, label: string): string {
  if (TS_PATTERN.test(value)) return value;
  throw new ToolError(
    errorCode,
    `${label} "${value}" is not a Slack timestamp; expected the format 1234567890.123456 (the message's "ts")`,
  );
}

/** A message of a channel (top-level or reply) by its ts. */
export function findMessage(state: SlackState, channelId: string, ts: string): SlackMessage | undefined {
  return (state.messages[channelId] ?? []).find((message) => message.ts === ts);
}

export function requireUser(state: SlackState, userId: string): SlackUser {
  const user = state.users.find((candidate) => candidate.id === userId);
  if (user) return user;
  throw new ToolError(
    "user_not_found",
    `no user with ID "${userId}" (user_id must be a user ID such as U0123ABCD; list users with slack_get_users)`,
  );
}

/** Slack-style opaque cursors: base64 of "<kind>:<id of the next item>". */
export function paginate<T extends { id: string }>(
  items: T[],
  kind: string,
  limit: number,
  cursor: string | undefined,
): { page: T[]; nextCursor: string } {
  let start = 0;
  if (cursor) {
    const [cursorKind, id] = Buffer.from(cursor, "base64").toString("utf8").split(":");
    start = cursorKind === kind ? items.findIndex((item) => item.id === id) : -1;
    if (start < 0) throw new ToolError("invalid_cursor", `cursor "${cursor}" is not valid for this list`);
  }
  const size = Math.max(1, Math.min(Math.floor(limit), 200));
  const page = items.slice(start, start + size);
  const next = items[start + size];
  return { page, nextCursor: next ? Buffer.from(`${kind}:${next.id}`).toString("base64") : "" };
}
