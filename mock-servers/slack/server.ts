import type { ServerSpec } from "../kit/types.ts";
import { slackChecks } from "./checks.ts";
import { createSlackState, type SlackState } from "./state.ts";
import { getChannelHistory, listChannels } from "./tools/channels.ts";
import { addReaction, getThreadReplies, postMessage, replyToThread } from "./tools/messages.ts";
import { getUserProfile, getUsers } from "./tools/users.ts";

/** The archived reference Slack server (@modelcontextprotocol/server-slack): same 8 tools, names and parameters. */
export const slackServer: ServerSpec<SlackState> = {
  name: "slack",
  version: "1.0.0",
  purpose:
    "Imitates the reference Slack MCP server (@modelcontextprotocol/server-slack) on the Acme workspace: channels, messages, threads, reactions and users; IDs only (C…, U…, ts), writes made as the app's bot user.",
  createState: createSlackState,
  tools: [
    listChannels,
    postMessage,
    replyToThread,
    addReaction,
    getChannelHistory,
    getThreadReplies,
    getUsers,
    getUserProfile,
  ],
  checks: slackChecks,
};
