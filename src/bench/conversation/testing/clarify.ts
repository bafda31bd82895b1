import type { ConversationItem } from "../../dataset/types.ts";

/** Two turns: the first lacks its repository (the agent should ask; the user answers acme/api), the second needs nothing. */
export const CLARIFY_CONVERSATION: ConversationItem = {
  id: "cv-test-clarify",
  category: "conversation",
  kind: "clarify",
  servers: ["github"],
  turns: [
    {
      user: "List the open issues.",
      calls: [{ tool: "list_issues", args: { owner: "acme", repo: "api" } }],
      ask: { reply: "acme/api", missing: ["owner", "repo"] },
    },
    { user: "Thanks, that's all.", calls: [] },
  ],
};
