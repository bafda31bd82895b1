import type { ToolSpec } from "../../kit/types.ts";
import { notFound } from "../errors.ts";
import { normalizeId } from "../ids.ts";
import { paginate } from "../lookup.ts";
import { id, listOutput, PAGE_SIZE, START_CURSOR, userOutput } from "../schemas.ts";
import type { NotionState } from "../state.ts";

export const getUser: ToolSpec<NotionState> = {
  name: "API-get-user",
  description: "Notion | Retrieve a user",
  inputSchema: { type: "object", properties: { user_id: id("") }, required: ["user_id"] },
  outputSchema: userOutput,
  annotations: { title: "Retrieve a user", readOnlyHint: true },
  handler: (args, { state }) => {
    const userId = normalizeId(args.user_id, "path.user_id");
    const user = [...state.users, state.bot].find((candidate) => candidate.id === userId);
    if (!user) throw notFound("user", userId);
    return structuredClone(user);
  },
};

export const getUsers: ToolSpec<NotionState> = {
  name: "API-get-users",
  description: "Notion | List all users",
  inputSchema: { type: "object", properties: { start_cursor: START_CURSOR, page_size: PAGE_SIZE } },
  outputSchema: listOutput(userOutput, { type: { const: "user" } }),
  annotations: { title: "List all users", readOnlyHint: true },
  handler: (args, { state }) => ({
    ...paginate(structuredClone([...state.users, state.bot]), (user) => user.id, args),
    type: "user",
    user: {},
  }),
};

export const getSelf: ToolSpec<NotionState> = {
  name: "API-get-self",
  description: "Notion | Retrieve your token's bot user",
  inputSchema: { type: "object", properties: {} },
  outputSchema: userOutput,
  annotations: { title: "Retrieve your token's bot user", readOnlyHint: true },
  handler: (_args, { state }) => structuredClone(state.bot),
};
