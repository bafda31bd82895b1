import type { JsonSchema } from "../kit/types.ts";

/** Output-schema pieces shared by the Slack tools (the shapes of Slack Web API responses). */

export const reactionSchema: JsonSchema = {
  type: "object",
  properties: {
    name: { type: "string" },
    users: { type: "array", items: { type: "string" } },
    count: { type: "integer" },
  },
  required: ["name", "users", "count"],
};

export const messageSchema: JsonSchema = {
  type: "object",
  properties: {
    type: { const: "message" },
    ts: { type: "string" },
    user: { type: "string" },
    text: { type: "string" },
    team: { type: "string" },
    bot_id: { type: "string" },
    thread_ts: { type: "string" },
    parent_user_id: { type: "string" },
    reply_count: { type: "integer" },
    reply_users: { type: "array", items: { type: "string" } },
    reply_users_count: { type: "integer" },
    latest_reply: { type: "string" },
    reactions: { type: "array", items: reactionSchema },
  },
  required: ["type", "ts", "user", "text"],
};

export const responseMetadataSchema: JsonSchema = {
  type: "object",
  properties: { next_cursor: { type: "string" } },
  required: ["next_cursor"],
};

export const postResultSchema: JsonSchema = {
  type: "object",
  properties: {
    ok: { const: true },
    channel: { type: "string" },
    ts: { type: "string" },
    message: messageSchema,
  },
  required: ["ok", "channel", "ts", "message"],
};
