import type { ToolSpec } from "../../kit/types.ts";
import { draftFromRequest, insertBlocks, isTrashed, liveChildren, renderBlock, TEXT_BLOCK_TYPES } from "../blocks.ts";
import { validationError } from "../errors.ts";
import { normalizeId } from "../ids.ts";
import { paginate, parseJsonParam, requireBlock, requireContainer } from "../lookup.ts";
import { requireEditable, sessionEdits, touch } from "../pages.ts";
import { parseRichText } from "../richtext.ts";
import { blockOutput, blockRequest, id, listOutput, PAGE_SIZE, START_CURSOR, withStringFallback } from "../schemas.ts";
import type { BlockRecord, Json, NotionState } from "../state.ts";

function requireEditableContainer(state: NotionState, containerId: string): void {
  const page = state.pages[containerId];
  const block = state.blocks[containerId];
  const trashed = page ? page.in_trash : block ? isTrashed(state, block) : false;
  requireEditable({ id: containerId, in_trash: trashed });
}

export const getBlockChildren: ToolSpec<NotionState> = {
  name: "API-get-block-children",
  description: "Notion | Retrieve block children",
  inputSchema: {
    type: "object",
    properties: {
      block_id: id("Identifier for a [block](ref:block)"),
      start_cursor: START_CURSOR,
      page_size: PAGE_SIZE,
    },
    required: ["block_id"],
  },
  outputSchema: listOutput(blockOutput),
  annotations: { title: "Retrieve block children", readOnlyHint: true },
  handler: (args, { state }) => {
    const containerId = requireContainer(state, args.block_id, "path.block_id");
    const list = paginate(liveChildren(state, containerId), (block) => block.id, args);
    return { ...list, results: list.results.map((block) => renderBlock(state, block)), type: "block", block: {} };
  },
};

export const patchBlockChildren: ToolSpec<NotionState> = {
  name: "API-patch-block-children",
  description: "Notion | Append block children",
  inputSchema: {
    type: "object",
    properties: {
      block_id: id("Identifier for a [block](ref:block). Also accepts a [page](ref:page) ID."),
      children: {
        type: "array",
        items: blockRequest,
        description: "Child content to append to a container block as an array of [block objects](ref:block)",
      },
      after: {
        type: "string",
        description: "The ID of the existing block that the new block should be appended after.",
      },
    },
    required: ["block_id", "children"],
  },
  outputSchema: listOutput(blockOutput),
  annotations: { title: "Append block children", readOnlyHint: false, destructiveHint: true },
  handler: (args, { state, now }) => {
    const containerId = requireContainer(state, args.block_id, "path.block_id");
    requireEditableContainer(state, containerId);
    const children = args.children as unknown[];
    if (children.length > 100) throw validationError("body failed validation: body.children.length should be ≤ `100`.");
    const drafts = children.map((child, index) => draftFromRequest(child, `body.children[${index}]`));
    const after = args.after === undefined ? undefined : normalizeId(args.after, "body.after");
    const ids = insertBlocks(state, containerId, drafts, sessionEdits(state, now), { after });
    const container = state.pages[containerId] ?? state.blocks[containerId];
    if (container) touch(container, state, now);
    return {
      object: "list",
      results: ids.map((blockId) => renderBlock(state, state.blocks[blockId]!)),
      next_cursor: null,
      has_more: false,
      type: "block",
      block: {},
    };
  },
};

export const retrieveBlock: ToolSpec<NotionState> = {
  name: "API-retrieve-a-block",
  description: "Notion | Retrieve a block",
  inputSchema: {
    type: "object",
    properties: { block_id: id("Identifier for a Notion block") },
    required: ["block_id"],
  },
  outputSchema: blockOutput,
  annotations: { title: "Retrieve a block", readOnlyHint: true },
  handler: (args, { state }) => renderBlock(state, requireBlock(state, args.block_id)),
};

/** Text of an update: `type` holds {<block type>: {rich_text,…}} or the payload itself ({rich_text,…}). */
function updatePayload(block: BlockRecord, input: unknown): Json {
  const value = parseJsonParam(input, "body.type") as Json;
  const payload = (value[block.type] ?? value) as Json;
  const otherType = Object.keys(value).find(
    (key) => key !== block.type && (TEXT_BLOCK_TYPES as readonly string[]).includes(key),
  );
  if (otherType) {
    throw validationError(
      `body failed validation: block ${block.id} is a ${block.type} block; its type cannot be changed to ${otherType}.`,
    );
  }
  return payload;
}

export const updateBlock: ToolSpec<NotionState> = {
  name: "API-update-a-block",
  description: "Notion | Update a block",
  inputSchema: {
    type: "object",
    properties: {
      block_id: id("Identifier for a Notion block"),
      type: withStringFallback({
        type: "object",
        description:
          "The [block object `type`](ref:block#block-object-keys) value with the properties to be updated. Currently only `text` (for supported block types) and `checked` (for `to_do` blocks) fields can be updated.",
        properties: {},
        additionalProperties: true,
      }),
      archived: {
        type: "boolean",
        description: "Set to true to archive (delete) a block. Set to false to un-archive (restore) a block.",
        default: true,
      },
    },
    required: ["block_id"],
  },
  outputSchema: blockOutput,
  annotations: { title: "Update a block", readOnlyHint: false, destructiveHint: true },
  handler: (args, { state, now }) => {
    const block = requireBlock(state, args.block_id);
    if (args.archived === false) block.in_trash = false;
    if (args.type !== undefined) {
      requireEditable({ id: block.id, in_trash: isTrashed(state, block) });
      if (!(TEXT_BLOCK_TYPES as readonly string[]).includes(block.type)) {
        throw validationError(`Block type ${block.type} does not support updating its content through this endpoint.`);
      }
      const payload = updatePayload(block, args.type);
      if (payload.rich_text !== undefined) {
        block.content.rich_text = parseRichText(payload.rich_text, `body.${block.type}.rich_text`);
      }
      if (block.type === "to_do" && typeof payload.checked === "boolean") block.content.checked = payload.checked;
      if (block.type === "code" && typeof payload.language === "string") block.content.language = payload.language;
    }
    if (args.archived === true) block.in_trash = true;
    touch(block, state, now);
    return renderBlock(state, block);
  },
};

export const deleteBlock: ToolSpec<NotionState> = {
  name: "API-delete-a-block",
  description: "Notion | Delete a block",
  inputSchema: {
    type: "object",
    properties: { block_id: id("Identifier for a Notion block") },
    required: ["block_id"],
  },
  outputSchema: blockOutput,
  annotations: { title: "Delete a block", readOnlyHint: false, destructiveHint: true },
  handler: (args, { state, now }) => {
    const block = requireBlock(state, args.block_id);
    // A child_page / child_database block is the page or database itself: deleting it trashes that object.
    const page = block.type === "child_page" ? state.pages[block.id] : undefined;
    const database = block.type === "child_database" ? state.databases[block.id] : undefined;
    if (page) page.in_trash = true;
    if (database) database.in_trash = true;
    block.in_trash = true;
    touch(block, state, now);
    return renderBlock(state, block);
  },
};
