import { type BlockDraft, insertBlocks } from "./blocks.ts";
import { validationError } from "./errors.ts";
import { nextId } from "./ids.ts";
import { emptyPropertyValue, findProperty, type PropertySchema, valueFromInput } from "./properties.ts";
import {
  type Edits,
  edits,
  type Json,
  linkChildBlock,
  type NotionState,
  type PageRecord,
  type ParentRef,
} from "./state.ts";

const PAGE_TITLE_SCHEMA: Record<string, PropertySchema> = {
  title: { id: "title", name: "title", type: "title", title: {} },
};

/** The properties a page may have: its data source's schema, or just `title` for a page under a page. */
export function schemaOf(state: NotionState, page: PageRecord): Record<string, PropertySchema> {
  if (page.parent.type === "data_source_id") return state.dataSources[page.parent.data_source_id]?.properties ?? {};
  return PAGE_TITLE_SCHEMA;
}

export function sessionEdits(state: NotionState, now: Date): Edits {
  return edits(now.toISOString(), state.bot.id);
}

export function touch(
  record: { last_edited_time: string; last_edited_by: Edits["last_edited_by"] },
  state: NotionState,
  now: Date,
): void {
  record.last_edited_time = now.toISOString();
  record.last_edited_by = { object: "user", id: state.bot.id };
}

export function requireEditable(record: { in_trash: boolean; id: string }): void {
  if (record.in_trash) {
    throw validationError(
      `Can't edit block that is archived. You must unarchive the block ${record.id} before editing.`,
    );
  }
}

/** Applies `properties` of a create/update request to a page; unknown names are a validation_error. */
export function applyProperties(
  state: NotionState,
  page: PageRecord,
  input: unknown,
  schema: Record<string, PropertySchema>,
): void {
  if (input === undefined) return;
  if (!input || typeof input !== "object" || Array.isArray(input)) {
    throw validationError(
      `body failed validation: body.properties should be an object, instead was \`${JSON.stringify(input)}\`.`,
    );
  }
  for (const [key, value] of Object.entries(input as Json)) {
    const prop = findProperty(schema, key);
    if (!prop) {
      const known = Object.keys(schema).join(", ");
      throw validationError(`${key} is not a property that exists. Properties of this page: ${known}.`);
    }
    page.properties[prop.name] = valueFromInput(state, prop, value, `body.properties.${key}`);
  }
}

export interface NewPage {
  parent: ParentRef;
  properties: unknown;
  children: BlockDraft[];
  icon: Json | null;
  cover: Json | null;
}

export function createPage(state: NotionState, request: NewPage, now: Date): PageRecord {
  const meta = sessionEdits(state, now);
  const page: PageRecord = {
    id: nextId(state),
    parent: request.parent,
    icon: request.icon,
    cover: request.cover,
    in_trash: false,
    properties: {},
    ...meta,
  };
  const schema = schemaOf(state, page);
  for (const prop of Object.values(schema)) page.properties[prop.name] = emptyPropertyValue(prop);
  applyProperties(state, page, request.properties, schema);
  state.pages[page.id] = page;
  if (request.parent.type === "page_id") linkChildBlock(state, page.id, request.parent.page_id, "child_page", meta);
  insertBlocks(state, page.id, request.children, meta);
  return page;
}

/** Detaches a page from its old parent's block list and files it under the new parent. */
export function reparentPage(state: NotionState, page: PageRecord, parent: ParentRef, now: Date): void {
  if (page.parent.type === "page_id") {
    const siblings = state.children[page.parent.page_id] ?? [];
    state.children[page.parent.page_id] = siblings.filter((id) => id !== page.id);
    delete state.blocks[page.id];
  }
  page.parent = parent;
  if (parent.type === "page_id") linkChildBlock(state, page.id, parent.page_id, "child_page", sessionEdits(state, now));
  touch(page, state, now);
}
