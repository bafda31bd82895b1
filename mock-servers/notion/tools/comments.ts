import type { ToolSpec } from "../../kit/types.ts";
import { nextId } from "../ids.ts";
import { paginate, parseJsonParam, requireContainer, requirePage } from "../lookup.ts";
import { renderComment } from "../render.ts";
import { parseRichText } from "../richtext.ts";
import { commentOutput, listOutput, PAGE_SIZE, richTextRequest, START_CURSOR } from "../schemas.ts";
import { type CommentRecord, type NotionState, userRef } from "../state.ts";

export const retrieveComments: ToolSpec<NotionState> = {
  name: "API-retrieve-a-comment",
  description: "Notion | Retrieve comments",
  inputSchema: {
    type: "object",
    properties: {
      block_id: { type: "string", description: "Identifier for a Notion block or page" },
      start_cursor: START_CURSOR,
      page_size: PAGE_SIZE,
    },
    required: ["block_id"],
  },
  outputSchema: listOutput(commentOutput),
  annotations: { title: "Retrieve comments", readOnlyHint: true },
  handler: (args, { state }) => {
    const targetId = requireContainer(state, args.block_id, "query.block_id");
    const comments = state.comments.filter((comment) =>
      comment.parent.type === "page_id" ? comment.parent.page_id === targetId : comment.parent.block_id === targetId,
    );
    const list = paginate(comments, (comment) => comment.id, args);
    return { ...list, results: list.results.map(renderComment), type: "comment", comment: {} };
  },
};

export const createComment: ToolSpec<NotionState> = {
  name: "API-create-a-comment",
  description: "Notion | Create comment",
  inputSchema: {
    type: "object",
    properties: {
      parent: {
        anyOf: [
          {
            type: "object",
            description: "The page that contains the comment",
            properties: { page_id: { type: "string", description: "the page ID" } },
            required: ["page_id"],
          },
          { type: "string" },
        ],
      },
      rich_text: { type: "array", items: richTextRequest },
    },
    required: ["parent", "rich_text"],
  },
  outputSchema: commentOutput,
  annotations: { title: "Create comment", readOnlyHint: false, destructiveHint: true },
  handler: (args, { state, now }) => {
    const parent = parseJsonParam(args.parent, "body.parent") as { page_id?: unknown };
    const page = requirePage(state, parent.page_id, "body.parent.page_id");
    const id = nextId(state);
    const comment: CommentRecord = {
      id,
      discussion_id: nextId(state),
      parent: { type: "page_id", page_id: page.id },
      created_time: now.toISOString(),
      last_edited_time: now.toISOString(),
      created_by: userRef(state.bot.id),
      rich_text: parseRichText(args.rich_text, "body.rich_text"),
    };
    state.comments.push(comment);
    return renderComment(comment);
  },
};
