import { pristineState } from "../kit/pristine.ts";
import { type BlockSpec, draftFromFixture, insertBlocks } from "./blocks.ts";
import commentsFixture from "./fixtures/comments.json" with { type: "json" };
import databasesFixture from "./fixtures/databases.json" with { type: "json" };
import pagesFixture from "./fixtures/pages.json" with { type: "json" };
import usersFixture from "./fixtures/users.json" with { type: "json" };
import {
  buildSchema,
  type FixtureProperty,
  type PropertySchema,
  type PropertyValue,
  valueFromFixture,
} from "./properties.ts";
import { type RichText, richText } from "./richtext.ts";

export type Json = Record<string, unknown>;

export type ParentRef =
  | { type: "workspace" }
  | { type: "page_id"; page_id: string }
  | { type: "block_id"; block_id: string }
  | { type: "data_source_id"; data_source_id: string; database_id: string };

export interface UserRef {
  object: "user";
  id: string;
}

export interface Edits {
  created_time: string;
  last_edited_time: string;
  created_by: UserRef;
  last_edited_by: UserRef;
}

export interface NotionUser {
  object: "user";
  id: string;
  name: string;
  avatar_url: string | null;
  type: "person" | "bot";
  person?: { email: string };
  bot?: Json;
}

export interface PageRecord extends Edits {
  id: string;
  parent: ParentRef;
  icon: Json | null;
  cover: Json | null;
  in_trash: boolean;
  properties: Record<string, PropertyValue>;
}

export interface BlockRecord extends Edits {
  id: string;
  parent: ParentRef;
  type: string;
  /** The type-specific payload (`block[block.type]` in the API). */
  content: Json;
  in_trash: boolean;
}

export interface DatabaseRecord extends Edits {
  id: string;
  parent: ParentRef;
  title: RichText[];
  description: RichText[];
  icon: Json | null;
  in_trash: boolean;
  data_sources: string[];
}

export interface Template {
  id: string;
  name: string;
  is_default: boolean;
}

export interface DataSourceRecord extends Edits {
  id: string;
  database_id: string;
  title: RichText[];
  description: RichText[];
  properties: Record<string, PropertySchema>;
  templates: Template[];
  in_trash: boolean;
}

export interface CommentRecord {
  id: string;
  discussion_id: string;
  parent: { type: "page_id"; page_id: string } | { type: "block_id"; block_id: string };
  created_time: string;
  last_edited_time: string;
  created_by: UserRef;
  rich_text: RichText[];
}

export interface NotionState {
  users: NotionUser[];
  /** The integration itself (API-get-self); every write of this server is made as it. */
  bot: NotionUser;
  pages: Record<string, PageRecord>;
  blocks: Record<string, BlockRecord>;
  /** Ordered child block IDs of a page or block (child_page / child_database blocks share the child's ID). */
  children: Record<string, string[]>;
  databases: Record<string, DatabaseRecord>;
  dataSources: Record<string, DataSourceRecord>;
  comments: CommentRecord[];
  /** Counter behind new object IDs. */
  counter: number;
  /** Blocks created in this session, for the block_appended check. */
  sessionBlocks: string[];
}

interface FixturePage {
  id: string;
  title: string;
  icon: string;
  parent: string | null;
  created: string;
  edited: string;
  author: string;
  editor: string;
  blocks: BlockSpec[];
}

interface FixtureDatabase {
  id: string;
  data_source_id: string;
  title: string;
  description: string;
  icon: string;
  parent: string;
  created: string;
  author: string;
  properties: Record<string, FixtureProperty>;
  templates: Template[];
  rows: { id: string; created: string; values: Record<string, unknown>; blocks: BlockSpec[] }[];
}

export const userRef = (id: string): UserRef => ({ object: "user", id });
export const emojiIcon = (emoji: string): Json => ({ type: "emoji", emoji });

export function edits(at: string, by: string, editedAt = at, editedBy = by): Edits {
  return { created_time: at, last_edited_time: editedAt, created_by: userRef(by), last_edited_by: userRef(editedBy) };
}

/** Links a child page or database into its parent's block list, as a child_page / child_database block. */
export function linkChildBlock(state: NotionState, id: string, parentId: string, type: string, meta: Edits): void {
  state.blocks[id] = {
    id,
    parent: { type: "page_id", page_id: parentId },
    type,
    content: {},
    in_trash: false,
    ...meta,
  };
  state.children[parentId] ??= [];
  state.children[parentId].push(id);
}

function buildNotionState(): NotionState {
  const people = usersFixture.people.map(
    (person): NotionUser => ({
      object: "user",
      id: person.id,
      name: person.name,
      avatar_url: null,
      type: "person",
      person: { email: person.email },
    }),
  );
  const handles = new Map(usersFixture.people.map((person) => [person.handle, person.id]));
  const byHandle = (handle: string) => handles.get(handle) ?? handle;
  const state: NotionState = {
    users: people,
    bot: {
      object: "user",
      id: usersFixture.bot.id,
      name: usersFixture.bot.name,
      avatar_url: null,
      type: "bot",
      bot: { owner: { type: "workspace", workspace: true }, workspace_name: usersFixture.bot.workspace_name },
    },
    pages: {},
    blocks: {},
    children: {},
    databases: {},
    dataSources: {},
    comments: [],
    counter: 0,
    sessionBlocks: [],
  };

  for (const page of pagesFixture as FixturePage[]) {
    const meta = edits(page.created, byHandle(page.author), page.edited, byHandle(page.editor));
    state.pages[page.id] = {
      id: page.id,
      parent: page.parent ? { type: "page_id", page_id: page.parent } : { type: "workspace" },
      icon: emojiIcon(page.icon),
      cover: null,
      in_trash: false,
      properties: { title: { id: "title", type: "title", title: richText(page.title) } },
      ...meta,
    };
    insertBlocks(state, page.id, page.blocks.map(draftFromFixture), meta, { seed: page.id });
    if (page.parent) linkChildBlock(state, page.id, page.parent, "child_page", meta);
  }

  for (const db of databasesFixture as unknown as FixtureDatabase[]) {
    const meta = edits(db.created, byHandle(db.author));
    state.databases[db.id] = {
      id: db.id,
      parent: { type: "page_id", page_id: db.parent },
      title: richText(db.title),
      description: richText(db.description),
      icon: emojiIcon(db.icon),
      in_trash: false,
      data_sources: [db.data_source_id],
      ...meta,
    };
    const schema = buildSchema(db.data_source_id, db.properties);
    state.dataSources[db.data_source_id] = {
      id: db.data_source_id,
      database_id: db.id,
      title: richText(db.title),
      description: richText(db.description),
      properties: schema,
      templates: structuredClone(db.templates),
      in_trash: false,
      ...meta,
    };
    linkChildBlock(state, db.id, db.parent, "child_database", meta);
    for (const row of db.rows) {
      const rowMeta = edits(row.created, byHandle(db.author));
      const properties: Record<string, PropertyValue> = {};
      for (const [name, prop] of Object.entries(schema)) {
        properties[name] = valueFromFixture(state, prop, row.values[name], byHandle);
      }
      state.pages[row.id] = {
        id: row.id,
        parent: { type: "data_source_id", data_source_id: db.data_source_id, database_id: db.id },
        icon: null,
        cover: null,
        in_trash: false,
        properties,
        ...rowMeta,
      };
      insertBlocks(state, row.id, row.blocks.map(draftFromFixture), rowMeta, { seed: row.id });
    }
  }

  for (const comment of commentsFixture) {
    state.comments.push({
      id: comment.id,
      discussion_id: comment.discussion,
      parent: { type: "page_id", page_id: comment.page },
      created_time: comment.created,
      last_edited_time: comment.created,
      created_by: userRef(byHandle(comment.author)),
      rich_text: richText(comment.text),
    });
  }
  return state;
}

/**
 * A fresh workspace built from the fixtures (pages, databases with one data source each, comments, users): built once,
 * copied on every later call (a reset).
 */
export const createNotionState: () => NotionState = pristineState(buildNotionState);
