import { validationError } from "./errors.ts";
import { nextId, uuidFrom } from "./ids.ts";
import { parseJsonParam } from "./lookup.ts";
import { parseRichText, plainText, type RichText, richText } from "./richtext.ts";
import type { BlockRecord, Edits, Json, NotionState } from "./state.ts";

/** Block types this mock can create; the text-bearing ones carry `rich_text`. */
export const TEXT_BLOCK_TYPES = [
  "paragraph",
  "heading_1",
  "heading_2",
  "heading_3",
  "bulleted_list_item",
  "numbered_list_item",
  "to_do",
  "toggle",
  "quote",
  "callout",
  "code",
] as const;
const CREATABLE_TYPES: readonly string[] = [...TEXT_BLOCK_TYPES, "divider"];

/** A block before it gets an ID: its type, its API payload and its nested children. */
export interface BlockDraft {
  type: string;
  content: Json;
  children: BlockDraft[];
}

/** Compact fixture form: [type, text, extra?] — extra is `checked` (to_do), language (code), emoji (callout) or children (toggle). */
export type BlockSpec = [string, string?, unknown?];

export function textContent(type: string, text: RichText[], extra: Json = {}): Json {
  const base: Json = { rich_text: text, color: "default" };
  if (type.startsWith("heading_")) base.is_toggleable = false;
  if (type === "to_do") base.checked = false;
  if (type === "code") return { rich_text: text, caption: [], language: "plain text", ...extra };
  if (type === "callout") base.icon = { type: "emoji", emoji: "💡" };
  return { ...base, ...extra };
}

export function draftFromFixture([type, text = "", extra]: BlockSpec): BlockDraft {
  if (type === "divider") return { type, content: {}, children: [] };
  const extras: Json = {};
  let children: BlockDraft[] = [];
  if (type === "to_do") extras.checked = extra === true;
  if (type === "code" && typeof extra === "string") extras.language = extra;
  if (type === "callout" && typeof extra === "string") extras.icon = { type: "emoji", emoji: extra };
  if (Array.isArray(extra)) children = (extra as BlockSpec[]).map(draftFromFixture);
  return { type, content: textContent(type, richText(text), extras), children };
}

/** Parses one block of a request body (children of PATCH /blocks/{id}/children, POST /pages). */
export function draftFromRequest(input: unknown, path: string): BlockDraft {
  const block = parseJsonParam(input, path) as Json | null;
  if (!block || typeof block !== "object" || Array.isArray(block)) {
    throw validationError(
      `body failed validation: ${path} should be an object, instead was \`${JSON.stringify(block)}\`.`,
    );
  }
  const type = typeof block.type === "string" ? block.type : CREATABLE_TYPES.find((candidate) => candidate in block);
  if (!type || !CREATABLE_TYPES.includes(type)) {
    throw validationError(
      `body failed validation: ${path}.type should be one of ${CREATABLE_TYPES.map((t) => `"${t}"`).join(", ")}, instead was \`${JSON.stringify(type)}\`.`,
    );
  }
  if (type === "divider") return { type, content: {}, children: [] };
  const body = block[type] as Json | undefined;
  if (!body || typeof body !== "object") {
    throw validationError(`body failed validation: ${path}.${type} should be defined, instead was \`undefined\`.`);
  }
  const text = parseRichText(body.rich_text, `${path}.${type}.rich_text`);
  const extras: Json = {};
  if (type === "to_do") extras.checked = body.checked === true;
  if (type === "code" && typeof body.language === "string") extras.language = body.language;
  if (type === "callout" && body.icon && typeof body.icon === "object") extras.icon = body.icon;
  const nested = Array.isArray(body.children) ? body.children : [];
  return {
    type,
    content: textContent(type, text, extras),
    children: nested.map((child, index) => draftFromRequest(child, `${path}.${type}.children[${index}]`)),
  };
}

export interface Placement {
  /** Fixture blocks get IDs derived from this seed; without it IDs come from the state's counter. */
  seed?: string;
  /** Insert after this child of the container instead of at the end. */
  after?: string;
}

/** Creates blocks (and their nested children) under a page or block; returns the top-level IDs in order. */
export function insertBlocks(
  state: NotionState,
  containerId: string,
  drafts: BlockDraft[],
  meta: Edits,
  placement: Placement = {},
): string[] {
  state.children[containerId] ??= [];
  const siblings = state.children[containerId];
  let position = siblings.length;
  if (placement.after !== undefined) {
    const index = siblings.indexOf(placement.after);
    if (index < 0) throw validationError(`Block ${placement.after} is not a child of ${containerId}.`);
    position = index + 1;
  }
  const parent = state.pages[containerId]
    ? ({ type: "page_id", page_id: containerId } as const)
    : ({ type: "block_id", block_id: containerId } as const);
  const ids: string[] = [];
  for (const draft of drafts) {
    const id = placement.seed ? uuidFrom(`${placement.seed}:block:${siblings.length + ids.length}`) : nextId(state);
    state.blocks[id] = { id, parent, type: draft.type, content: draft.content, in_trash: false, ...meta };
    if (!placement.seed) state.sessionBlocks.push(id);
    ids.push(id);
    if (draft.children.length > 0) insertBlocks(state, id, draft.children, meta, placement.seed ? { seed: id } : {});
  }
  siblings.splice(position, 0, ...ids);
  return ids;
}

/** The live (not trashed) child blocks of a page or block, in order. */
export function liveChildren(state: NotionState, containerId: string): BlockRecord[] {
  return (state.children[containerId] ?? [])
    .map((id) => state.blocks[id])
    .filter((block): block is BlockRecord => block !== undefined && !isTrashed(state, block));
}

export function isTrashed(state: NotionState, block: BlockRecord): boolean {
  if (block.type === "child_page") return state.pages[block.id]?.in_trash ?? block.in_trash;
  if (block.type === "child_database") return state.databases[block.id]?.in_trash ?? block.in_trash;
  return block.in_trash;
}

/** Every live block under a container, depth first. */
export function descendants(state: NotionState, containerId: string): BlockRecord[] {
  return liveChildren(state, containerId).flatMap((block) => [block, ...descendants(state, block.id)]);
}

export function blockText(state: NotionState, block: BlockRecord): string {
  if (block.type === "child_page") return pageTitleOf(state, block.id);
  if (block.type === "child_database") return plainText(state.databases[block.id]?.title);
  return plainText(block.content.rich_text as RichText[] | undefined);
}

export function pageTitleOf(state: NotionState, pageId: string): string {
  const page = state.pages[pageId];
  const title = page && Object.values(page.properties).find((value) => value.type === "title");
  return plainText(title?.title as RichText[] | undefined);
}

/** The API shape of a block (`GET /v1/blocks/{id}`). */
export function renderBlock(state: NotionState, block: BlockRecord): Json {
  const parent =
    block.parent.type === "page_id"
      ? { type: "page_id", page_id: block.parent.page_id }
      : block.parent.type === "block_id"
        ? { type: "block_id", block_id: block.parent.block_id }
        : block.parent;
  let content = block.content;
  if (block.type === "child_page" || block.type === "child_database") content = { title: blockText(state, block) };
  const trashed = isTrashed(state, block);
  return {
    object: "block",
    id: block.id,
    parent,
    created_time: block.created_time,
    last_edited_time: block.last_edited_time,
    created_by: block.created_by,
    last_edited_by: block.last_edited_by,
    has_children: liveChildren(state, block.id).length > 0,
    archived: trashed,
    in_trash: trashed,
    type: block.type,
    [block.type]: structuredClone(content),
  };
}
