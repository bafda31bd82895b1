import { notFound, validationError } from "./errors.ts";
import { normalizeId } from "./ids.ts";
import type { BlockRecord, DatabaseRecord, DataSourceRecord, NotionState, PageRecord } from "./state.ts";

export function requirePage(state: NotionState, value: unknown, path = "path.page_id"): PageRecord {
  const id = normalizeId(value, path);
  const page = state.pages[id];
  if (!page) throw notFound("page", id);
  return page;
}

export function requireBlock(state: NotionState, value: unknown, path = "path.block_id"): BlockRecord {
  const id = normalizeId(value, path);
  const block = state.blocks[id];
  if (!block) throw notFound("block", id);
  return block;
}

export function requireDataSource(state: NotionState, value: unknown, path = "path.data_source_id"): DataSourceRecord {
  const id = normalizeId(value, path);
  const dataSource = state.dataSources[id];
  if (!dataSource) throw notFound("data_source", id);
  return dataSource;
}

export function requireDatabase(state: NotionState, value: unknown, path = "path.database_id"): DatabaseRecord {
  const id = normalizeId(value, path);
  const database = state.databases[id];
  if (!database) throw notFound("database", id);
  return database;
}

/** A page or a block: what block_id parameters of the children/comments endpoints accept. */
export function requireContainer(state: NotionState, value: unknown, path: string): string {
  const id = normalizeId(value, path);
  if (state.pages[id] || state.blocks[id]) return id;
  throw notFound("block", id);
}

/** Nested object parameters also arrive JSON-encoded (the real server's withStringFallback). */
export function parseJsonParam(value: unknown, path: string): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    throw validationError(
      `body failed validation: ${path} should be an object, instead was \`${JSON.stringify(value)}\`.`,
    );
  }
}

export interface NotionList<T> {
  object: "list";
  results: T[];
  next_cursor: string | null;
  has_more: boolean;
}

/** Notion pagination: start_cursor is the ID of the first item of the page; page_size 1–100 (default 100). */
export function paginate<T>(items: T[], idOf: (item: T) => string, args: Record<string, unknown>): NotionList<T> {
  let start = 0;
  if (args.start_cursor !== undefined) {
    start = items.findIndex((item) => idOf(item) === String(args.start_cursor));
    if (start < 0) throw validationError(`start_cursor provided is invalid: ${String(args.start_cursor)}`);
  }
  const size = args.page_size === undefined ? 100 : Number(args.page_size);
  if (!Number.isInteger(size) || size < 1 || size > 100) {
    throw validationError(`body failed validation: page_size should be between 1 and 100, instead was \`${size}\`.`);
  }
  const results = items.slice(start, start + size);
  const next = items[start + size];
  return { object: "list", results, next_cursor: next ? idOf(next) : null, has_more: next !== undefined };
}
