import { pageTitleOf } from "./blocks.ts";
import { plainText } from "./richtext.ts";
import type {
  CommentRecord,
  DatabaseRecord,
  DataSourceRecord,
  Json,
  NotionState,
  PageRecord,
  ParentRef,
} from "./state.ts";

/** API shapes of pages, databases, data sources and comments (Notion-Version 2025-09-03). */

export function renderParent(parent: ParentRef): Json {
  return parent.type === "workspace" ? { type: "workspace", workspace: true } : { ...parent };
}

function url(title: string, id: string): string {
  const slug = title.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "");
  return `https://www.notion.so/${slug ? `${slug}-` : ""}${id.replaceAll("-", "")}`;
}

export function renderPage(state: NotionState, page: PageRecord): Json {
  return {
    object: "page",
    id: page.id,
    created_time: page.created_time,
    last_edited_time: page.last_edited_time,
    created_by: page.created_by,
    last_edited_by: page.last_edited_by,
    cover: page.cover,
    icon: page.icon,
    parent: renderParent(page.parent),
    archived: page.in_trash,
    in_trash: page.in_trash,
    is_locked: false,
    properties: structuredClone(page.properties),
    url: url(pageTitleOf(state, page.id), page.id),
    public_url: null,
  };
}

export function renderDatabase(state: NotionState, database: DatabaseRecord): Json {
  return {
    object: "database",
    id: database.id,
    title: database.title,
    description: database.description,
    parent: renderParent(database.parent),
    is_inline: false,
    in_trash: database.in_trash,
    is_locked: false,
    created_time: database.created_time,
    last_edited_time: database.last_edited_time,
    data_sources: database.data_sources.map((id) => ({ id, name: plainText(state.dataSources[id]?.title) })),
    icon: database.icon,
    cover: null,
    url: url(plainText(database.title), database.id),
    public_url: null,
  };
}

export function renderDataSource(state: NotionState, dataSource: DataSourceRecord): Json {
  const database = state.databases[dataSource.database_id];
  return {
    object: "data_source",
    id: dataSource.id,
    created_time: dataSource.created_time,
    last_edited_time: dataSource.last_edited_time,
    created_by: dataSource.created_by,
    last_edited_by: dataSource.last_edited_by,
    title: dataSource.title,
    description: dataSource.description,
    properties: structuredClone(dataSource.properties),
    parent: { type: "database_id", database_id: dataSource.database_id },
    database_parent: database ? renderParent(database.parent) : null,
    archived: dataSource.in_trash,
    in_trash: dataSource.in_trash,
    is_inline: false,
    icon: database?.icon ?? null,
    cover: null,
    url: url(plainText(dataSource.title), dataSource.id),
    public_url: null,
  };
}

export function renderComment(comment: CommentRecord): Json {
  return { object: "comment", ...structuredClone(comment) };
}
