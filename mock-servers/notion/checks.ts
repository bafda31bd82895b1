import type { StateCheck, StateCheckResult } from "../kit/types.ts";
import { blockText, pageTitleOf } from "./blocks.ts";
import { schemaOf } from "./pages.ts";
import { findProperty, simpleValue } from "./properties.ts";
import { plainText } from "./richtext.ts";
import type { NotionState, PageRecord } from "./state.ts";

const squash = (id: unknown) =>
  String(id ?? "")
    .replaceAll("-", "")
    .toLowerCase();
const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The page a check names: by `page_id` (dashes optional) or by exact `title` (live pages first). */
function resolvePage(state: NotionState, args: Record<string, unknown>): PageRecord | undefined {
  const pages = Object.values(state.pages).sort((a, b) => Number(a.in_trash) - Number(b.in_trash));
  if (args.page_id !== undefined) return pages.find((page) => squash(page.id) === squash(args.page_id));
  if (args.title !== undefined) return pages.find((page) => same(pageTitleOf(state, page.id), String(args.title)));
  return undefined;
}

function missing(args: Record<string, unknown>): StateCheckResult {
  return { pass: false, detail: `no page ${String(args.page_id ?? JSON.stringify(args.title))}` };
}

function parentIds(page: PageRecord): string[] {
  const parent = page.parent;
  if (parent.type === "page_id") return [parent.page_id];
  if (parent.type === "data_source_id") return [parent.data_source_id, parent.database_id];
  return ["workspace"];
}

/** Compares a property's plain value with the expected one: text case-insensitively, lists by membership. */
function valueMatches(state: NotionState, actual: unknown, expected: unknown): boolean {
  if (Array.isArray(actual)) {
    // People values are user IDs; accept a name or an email as well.
    const aliases = actual.map((item) => {
      const user = state.users.find((candidate) => candidate.id === item);
      return [String(item), user?.name ?? "", user?.person?.email ?? ""].map((alias) => alias.toLowerCase());
    });
    const has = (wanted: unknown) => aliases.some((alias) => alias.includes(String(wanted).toLowerCase()));
    return Array.isArray(expected) ? expected.length === actual.length && expected.every(has) : has(expected);
  }
  if (typeof actual === "number") return actual === Number(expected);
  if (typeof actual === "boolean") return actual === (expected === true || expected === "true");
  if (actual === null) return expected === null || expected === "";
  return (
    same(String(actual), String(expected)) ||
    (typeof expected === "string" && String(actual).startsWith(expected) && /^\d{4}-\d{2}-\d{2}$/.test(expected))
  );
}

/** Walks a block's parents up to the page it lives on. */
function pageOfBlock(state: NotionState, blockId: string): string | undefined {
  let current = state.blocks[blockId];
  for (let depth = 0; current && depth < 50; depth++) {
    if (current.parent.type === "page_id") return current.parent.page_id;
    if (current.parent.type !== "block_id") return undefined;
    current = state.blocks[current.parent.block_id];
  }
  return undefined;
}

export const notionChecks: Record<string, StateCheck<NotionState>> = {
  /** {title, parent_id?}: a live page with that title (under that page, database or data source). */
  page_exists: (state, args) => {
    const hits = Object.values(state.pages).filter(
      (page) => !page.in_trash && same(pageTitleOf(state, page.id), String(args.title)),
    );
    const placed =
      args.parent_id === undefined
        ? hits
        : hits.filter((page) => parentIds(page).some((id) => squash(id) === squash(args.parent_id)));
    if (placed.length > 0) return { pass: true, detail: `page ${placed[0]!.id} "${String(args.title)}" exists` };
    const elsewhere = hits.map((page) => `${page.id} under ${parentIds(page).join("/")}`).join("; ");
    return {
      pass: false,
      detail: `no live page titled "${String(args.title)}"${elsewhere ? ` under ${String(args.parent_id)} (found: ${elsewhere})` : ""}`,
    };
  },

  /** {page_id | title, property, value}: a property (by name or ID) has that value (options by name, people by name/email/ID, dates by day). */
  page_property_equals: (state, args) => {
    const page = resolvePage(state, args);
    if (!page) return missing(args);
    const prop = findProperty(schemaOf(state, page), String(args.property));
    const value = prop ? page.properties[prop.name] : undefined;
    if (!value) return { pass: false, detail: `page ${page.id} has no property "${String(args.property)}"` };
    const actual = simpleValue(value);
    return {
      pass: valueMatches(state, actual, args.value),
      detail: `${String(args.property)} of ${page.id} is ${JSON.stringify(actual)} (wanted ${JSON.stringify(args.value)})`,
    };
  },

  /** {page_id | title, text_contains}: a block added in this session on that page contains the text. */
  block_appended: (state, args) => {
    const page = resolvePage(state, args);
    if (!page) return missing(args);
    const added = state.sessionBlocks
      .map((id) => state.blocks[id]!)
      .filter((block) => !block.in_trash && pageOfBlock(state, block.id) === page.id);
    const needle = String(args.text_contains ?? "").toLowerCase();
    const hit = added.find((block) => blockText(state, block).toLowerCase().includes(needle));
    return hit
      ? { pass: true, detail: `block ${hit.id} (${hit.type}) contains "${String(args.text_contains)}"` }
      : {
          pass: false,
          detail: `no new block on ${page.id} contains "${String(args.text_contains)}" (${added.length} new blocks)`,
        };
  },

  /** {page_id | title, text_contains}: a comment on the page contains the text. */
  comment_exists: (state, args) => {
    const page = resolvePage(state, args);
    if (!page) return missing(args);
    const comments = state.comments.filter(
      (comment) => comment.parent.type === "page_id" && comment.parent.page_id === page.id,
    );
    const needle = String(args.text_contains ?? "").toLowerCase();
    const hit = comments.find((comment) => plainText(comment.rich_text).toLowerCase().includes(needle));
    return hit
      ? { pass: true, detail: `comment ${hit.id} contains "${String(args.text_contains)}"` }
      : {
          pass: false,
          detail: `none of the ${comments.length} comments on ${page.id} contains "${String(args.text_contains)}"`,
        };
  },

  /** {page_id | title}: the page is in the trash. */
  page_trashed: (state, args) => {
    const page = resolvePage(state, args);
    if (!page) return missing(args);
    return { pass: page.in_trash, detail: `page ${page.id} in_trash=${page.in_trash}` };
  },
};
