import { type BlockDraft, blockText, draftFromFixture, insertBlocks, liveChildren } from "./blocks.ts";
import { validationError } from "./errors.ts";
import { sessionEdits } from "./pages.ts";
import type { BlockRecord, NotionState } from "./state.ts";

/** Notion-flavoured Markdown for a page's blocks: one block per line, children indented with a tab. */

const PREFIX: Record<string, string> = {
  heading_1: "# ",
  heading_2: "## ",
  heading_3: "### ",
  bulleted_list_item: "- ",
  numbered_list_item: "1. ",
  quote: "> ",
  toggle: "▶ ",
};

function blockLine(state: NotionState, block: BlockRecord): string {
  const text = blockText(state, block);
  switch (block.type) {
    case "to_do":
      return `- [${block.content.checked ? "x" : " "}] ${text}`;
    case "code":
      return `\`\`\`${String(block.content.language ?? "")}\n${text}\n\`\`\``;
    case "callout":
      return `<callout icon="${String((block.content.icon as { emoji?: string } | undefined)?.emoji ?? "💡")}">${text}</callout>`;
    case "divider":
      return "---";
    case "child_page":
      return `<page id="${block.id}">${text}</page>`;
    case "child_database":
      return `<database id="${block.id}">${text}</database>`;
    default:
      return `${PREFIX[block.type] ?? ""}${text}`;
  }
}

/** A block and its children as Markdown (children indented one tab per level). */
export function blockMarkdown(state: NotionState, block: BlockRecord): string {
  const own = blockLine(state, block);
  if (block.type === "child_page") return own;
  const nested = liveChildren(state, block.id).map((child) => indent(blockMarkdown(state, child)));
  return [own, ...nested].join("\n");
}

const indent = (text: string) =>
  text
    .split("\n")
    .map((line) => `\t${line}`)
    .join("\n");

export function pageMarkdown(state: NotionState, pageId: string): string {
  return liveChildren(state, pageId)
    .map((block) => blockMarkdown(state, block))
    .join("\n");
}

/** Splits Markdown into top-level items: a line at column 0 plus its tab-indented lines (or a whole ``` fence). */
function splitItems(markdown: string): string[] {
  const items: string[] = [];
  let fence = false;
  for (const line of markdown.replace(/\r\n/g, "\n").split("\n")) {
    if (fence) {
      items[items.length - 1] += `\n${line}`;
      if (line.trim().startsWith("```")) fence = false;
      continue;
    }
    if (!line.trim()) continue;
    if (line.startsWith("\t") && items.length > 0) items[items.length - 1] += `\n${line}`;
    else {
      items.push(line);
      if (line.startsWith("```") && !/^```[^`]*```\s*$/.test(line)) fence = true;
    }
  }
  return items;
}

const REFERENCE = /^<(page|database) id="([0-9a-f-]{36})">.*<\/(page|database)>$/;

function draftFromItem(item: string): BlockDraft {
  const [first = "", ...rest] = item.split("\n");
  const children = splitItems(rest.map((line) => line.replace(/^\t/, "")).join("\n")).map(draftFromItem);
  const withChildren = (draft: BlockDraft): BlockDraft => ({ ...draft, children });
  if (first.startsWith("```")) {
    const language = first.slice(3).trim() || "plain text";
    const body = item.split("\n").slice(1);
    if (body.at(-1)?.trim().startsWith("```")) body.pop();
    return draftFromFixture(["code", body.join("\n"), language]);
  }
  const todo = /^- \[( |x)\] (.*)$/.exec(first);
  if (todo) return withChildren(draftFromFixture(["to_do", todo[2], todo[1] === "x"]));
  const callout = /^<callout icon="(.*?)">(.*)<\/callout>$/.exec(first);
  if (callout) return withChildren(draftFromFixture(["callout", callout[2], callout[1]]));
  if (first.trim() === "---") return draftFromFixture(["divider"]);
  const numbered = /^\d+\. (.*)$/.exec(first);
  if (numbered) return withChildren(draftFromFixture(["numbered_list_item", numbered[1]]));
  for (const [type, prefix] of Object.entries(PREFIX)) {
    if (type !== "numbered_list_item" && first.startsWith(prefix)) {
      return withChildren(draftFromFixture([type, first.slice(prefix.length)]));
    }
  }
  const bullet = /^[*+] (.*)$/.exec(first);
  if (bullet) return withChildren(draftFromFixture(["bulleted_list_item", bullet[1]]));
  return withChildren(draftFromFixture(["paragraph", first]));
}

/**
 * Replaces a page's content with new Markdown. Blocks whose Markdown is unchanged keep their IDs; child pages
 * and databases survive only when referenced, and dropping one needs allow_deleting_content.
 */
export function rewritePage(
  state: NotionState,
  pageId: string,
  markdown: string,
  allowDeleting: boolean,
  now: Date,
): void {
  const old = liveChildren(state, pageId);
  const unused = new Map(old.map((block) => [block.id, blockMarkdown(state, block)]));
  const order: (string | BlockDraft)[] = [];
  for (const item of splitItems(markdown)) {
    const reference = REFERENCE.exec(item.split("\n")[0] ?? "");
    const keep = reference
      ? old.find((block) => block.id === reference[2])
      : old.find((block) => unused.get(block.id) === item);
    if (keep && unused.has(keep.id)) {
      unused.delete(keep.id);
      order.push(keep.id);
    } else if (reference) {
      throw validationError(`The ${reference[1]} ${reference[2]} is not a child of page ${pageId}.`);
    } else order.push(draftFromItem(item));
  }
  const dropped = old.filter((block) => unused.has(block.id));
  const droppedPages = dropped.filter((block) => block.type === "child_page" || block.type === "child_database");
  if (droppedPages.length > 0 && !allowDeleting) {
    const titles = droppedPages.map((block) => `"${blockText(state, block)}"`).join(", ");
    throw validationError(
      `This update would delete child pages or databases (${titles}). Set allow_deleting_content to true to allow it.`,
    );
  }
  for (const block of dropped) {
    block.in_trash = true;
    if (block.type === "child_page" && state.pages[block.id]) state.pages[block.id]!.in_trash = true;
    if (block.type === "child_database" && state.databases[block.id]) state.databases[block.id]!.in_trash = true;
  }
  const meta = sessionEdits(state, now);
  const ids: string[] = [];
  for (const entry of order) {
    if (typeof entry === "string") ids.push(entry);
    else ids.push(...insertBlocks(state, pageId, [entry], meta));
  }
  const trashed = (state.children[pageId] ?? []).filter((id) => !ids.includes(id));
  state.children[pageId] = [...ids, ...trashed];
}
