import { ToolError } from "../kit/errors.ts";

const CURSOR_PREFIX = "cursor:v2:";

/** Opaque GraphQL-style cursor for list_issues: base64 of the offset after the item. */
export function encodeCursor(offset: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${offset}`).toString("base64");
}

export function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, "base64").toString("utf8");
  const offset = Number(text.slice(CURSOR_PREFIX.length));
  if (!text.startsWith(CURSOR_PREFIX) || !Number.isInteger(offset) || offset < 0) {
    throw new ToolError(
      "invalid_argument",
      `after: "${cursor}" is not a valid cursor; pass pageInfo.endCursor from a previous list_issues result`,
    );
  }
  return offset;
}

const DEFAULT_PER_PAGE = 30;

/** REST-style page/perPage slicing (page 1-based, 30 per page by default). */
export function paginate<T>(items: T[], page: number | undefined, perPage: number | undefined): T[] {
  const size = perPage ?? DEFAULT_PER_PAGE;
  const start = ((page ?? 1) - 1) * size;
  return items.slice(start, start + size);
}

/** Keeps only the requested fields of each item (the `fields` parameter of several list tools). */
export function project<T extends object>(items: T[], fields: string[] | undefined): Partial<T>[] {
  if (!fields || fields.length === 0) return items;
  return items.map(
    (item) => Object.fromEntries(Object.entries(item).filter(([key]) => fields.includes(key))) as Partial<T>,
  );
}

/** Stable sort by a key (numbers or ISO strings); direction 1 ascending, -1 descending. */
export function sortByKey<T>(items: T[], key: (item: T) => number | string, direction: 1 | -1): T[] {
  return [...items].sort((a, b) => {
    const [left, right] = [key(a), key(b)];
    return (left < right ? -1 : left > right ? 1 : 0) * direction;
  });
}
