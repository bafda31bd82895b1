import type { ServerSpec } from "../kit/types.ts";
import { notionChecks } from "./checks.ts";
import { createNotionState, type NotionState } from "./state.ts";
import { deleteBlock, getBlockChildren, patchBlockChildren, retrieveBlock, updateBlock } from "./tools/blocks.ts";
import { createComment, retrieveComments } from "./tools/comments.ts";
import {
  createDataSource,
  listDataSourceTemplates,
  queryDataSource,
  retrieveDatabase,
  retrieveDataSource,
  updateDataSource,
} from "./tools/dataSources.ts";
import { retrievePageMarkdown, updatePageMarkdown } from "./tools/markdown.ts";
import { movePage, patchPage, postPage, retrievePage, retrievePageProperty } from "./tools/pages.ts";
import { postSearch } from "./tools/search.ts";
import { getSelf, getUser, getUsers } from "./tools/users.ts";

/**
 * makenotion/notion-mcp-server v2.5.0 (the 24-tool data-source surface, Notion-Version 2025-09-03), in the
 * real server's tool order. Chosen over v1.9.0 because the reference lists both and v2.x is current.
 */
export const notionServer: ServerSpec<NotionState> = {
  name: "notion",
  version: "2.5.0",
  purpose:
    "Imitates the official Notion MCP server v2.5.0 (API-* tools, data sources) on the Acme workspace: pages, blocks, two databases (Tasks, Docs), comments and users; UUID IDs, so titles must be searched first.",
  createState: createNotionState,
  tools: [
    getUser,
    getUsers,
    getSelf,
    postSearch,
    getBlockChildren,
    patchBlockChildren,
    retrieveBlock,
    updateBlock,
    deleteBlock,
    retrievePage,
    patchPage,
    postPage,
    retrievePageProperty,
    retrieveComments,
    createComment,
    queryDataSource,
    retrieveDataSource,
    updateDataSource,
    createDataSource,
    listDataSourceTemplates,
    retrieveDatabase,
    movePage,
    retrievePageMarkdown,
    updatePageMarkdown,
  ],
  checks: notionChecks,
};
