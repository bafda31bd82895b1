import type { ToolSpec } from "../../kit/types.ts";
import { paginate, requireUser } from "../lookup.ts";
import { responseMetadataSchema } from "../schemas.ts";
import type { SlackState } from "../state.ts";

export const getUsers: ToolSpec<SlackState> = {
  name: "slack_get_users",
  description: "Get a list of all users in the workspace with their basic profile information",
  inputSchema: {
    type: "object",
    properties: {
      cursor: { type: "string", description: "Pagination cursor for next page of results" },
      limit: { type: "number", description: "Maximum number of users to return (default 100, max 200)", default: 100 },
    },
  },
  outputSchema: {
    type: "object",
    properties: {
      ok: { const: true },
      users: {
        type: "array",
        items: {
          type: "object",
          properties: {
            id: { type: "string" },
            real_name: { type: "string" },
            display_name: { type: "string" },
            title: { type: "string" },
          },
          required: ["id", "real_name"],
        },
      },
      response_metadata: responseMetadataSchema,
    },
    required: ["ok", "users", "response_metadata"],
  },
  annotations: { title: "List users", readOnlyHint: true },
  handler: (args, { state }) => {
    // Like the reference server: bots and deactivated accounts are filtered out.
    const people = state.users.filter((user) => !user.is_bot && !user.deleted);
    const { page, nextCursor } = paginate(people, "user", Number(args.limit ?? 100), args.cursor as string | undefined);
    return {
      ok: true,
      users: page.map((user) => ({
        id: user.id,
        real_name: user.real_name,
        ...(user.display_name ? { display_name: user.display_name } : {}),
        ...(user.title ? { title: user.title } : {}),
      })),
      response_metadata: { next_cursor: nextCursor },
    };
  },
};

export const getUserProfile: ToolSpec<SlackState> = {
  name: "slack_get_user_profile",
  description: "Get detailed profile information for a specific user",
  inputSchema: {
    type: "object",
    properties: { user_id: { type: "string", description: "The ID of the user" } },
    required: ["user_id"],
  },
  outputSchema: {
    type: "object",
    properties: {
      ok: { const: true },
      profile: {
        type: "object",
        properties: {
          real_name: { type: "string" },
          real_name_normalized: { type: "string" },
          display_name: { type: "string" },
          display_name_normalized: { type: "string" },
          first_name: { type: "string" },
          last_name: { type: "string" },
          title: { type: "string" },
          email: { type: "string" },
          phone: { type: "string" },
          status_text: { type: "string" },
          status_emoji: { type: "string" },
          team: { type: "string" },
        },
        required: ["real_name", "display_name"],
      },
    },
    required: ["ok", "profile"],
  },
  annotations: { title: "Get user profile", readOnlyHint: true },
  handler: (args, { state }) => {
    const user = requireUser(state, String(args.user_id));
    return {
      ok: true,
      profile: {
        real_name: user.real_name,
        real_name_normalized: user.real_name,
        display_name: user.display_name,
        display_name_normalized: user.display_name,
        first_name: user.first_name,
        last_name: user.last_name,
        title: user.title,
        email: user.email,
        phone: user.phone,
        status_text: user.status_text,
        status_emoji: user.status_emoji,
        team: state.team.id,
      },
    };
  },
};
