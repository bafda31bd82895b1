import type { ToolSpec } from "../../kit/types.ts";
import { paginate, requireChannel } from "../lookup.ts";
import { messageSchema, responseMetadataSchema } from "../schemas.ts";
import type { SlackState } from "../state.ts";

export const listChannels: ToolSpec<SlackState> = {
  name: "slack_list_channels",
  description: "List channels the app has access to with pagination",
  inputSchema: {
    type: "object",
    properties: {
      limit: {
        type: "number",
        description: "Maximum number of channels to return (default 100, max 200)",
        default: 100,
      },
      cursor: { type: "string", description: "Pagination cursor for next page of results" },
    },
  },
  outputSchema: {
    type: "object",
    properties: {
      ok: { const: true },
      channels: {
        type: "array",
        items: {
          type: "object",
          properties: {
            id: { type: "string" },
            name: { type: "string" },
            topic: { type: "string" },
            purpose: { type: "string" },
            num_members: { type: "integer" },
          },
          required: ["id", "name"],
        },
      },
      response_metadata: responseMetadataSchema,
    },
    required: ["ok", "channels", "response_metadata"],
  },
  annotations: { title: "List channels", readOnlyHint: true },
  handler: (args, { state }) => {
    // users.conversations with exclude_archived=true: archived channels are not listed.
    const open = state.channels.filter((channel) => !channel.is_archived);
    const { page, nextCursor } = paginate(
      open,
      "channel",
      Number(args.limit ?? 100),
      args.cursor as string | undefined,
    );
    return {
      ok: true,
      channels: page.map((channel) => ({
        id: channel.id,
        name: channel.name,
        ...(channel.topic ? { topic: channel.topic } : {}),
        ...(channel.purpose ? { purpose: channel.purpose } : {}),
        num_members: channel.members.length,
      })),
      response_metadata: { next_cursor: nextCursor },
    };
  },
};

export const getChannelHistory: ToolSpec<SlackState> = {
  name: "slack_get_channel_history",
  description: "Get recent messages from a channel",
  inputSchema: {
    type: "object",
    properties: {
      channel_id: { type: "string", description: "The ID of the channel" },
      limit: { type: "number", description: "Number of messages to retrieve (default 10)", default: 10 },
    },
    required: ["channel_id"],
  },
  outputSchema: {
    type: "object",
    properties: {
      ok: { const: true },
      messages: { type: "array", items: messageSchema },
      has_more: { type: "boolean" },
      pin_count: { type: "integer" },
      response_metadata: responseMetadataSchema,
    },
    required: ["ok", "messages", "has_more"],
  },
  annotations: { title: "Get channel history", readOnlyHint: true },
  handler: (args, { state }) => {
    const channel = requireChannel(state, String(args.channel_id));
    // conversations.history: top-level messages only (thread parents included), newest first.
    const topLevel = (state.messages[channel.id] ?? [])
      .filter((message) => message.thread_ts === undefined || message.thread_ts === message.ts)
      .slice()
      .reverse();
    const limit = Math.max(1, Math.min(Math.floor(Number(args.limit ?? 10)), 999));
    const messages = topLevel.slice(0, limit);
    const hasMore = topLevel.length > limit;
    const nextCursor = hasMore ? Buffer.from(`next_ts:${messages.at(-1)?.ts}`).toString("base64") : "";
    return {
      ok: true,
      messages: structuredClone(messages),
      has_more: hasMore,
      pin_count: 0,
      response_metadata: { next_cursor: nextCursor },
    };
  },
};
