import type { ToolSpec } from "../../kit/types.ts";
import { validationError } from "../errors.ts";
import { parseJsonParam, requirePage } from "../lookup.ts";
import { pageMarkdown, rewritePage } from "../markdown.ts";
import { requireEditable, touch } from "../pages.ts";
import { id, pageMarkdownOutput, withStringFallback } from "../schemas.ts";
import type { Json, NotionState } from "../state.ts";

function markdownResult(state: NotionState, pageId: string) {
  return {
    object: "page_markdown",
    id: pageId,
    markdown: pageMarkdown(state, pageId),
    truncated: false,
    unknown_block_ids: [],
  };
}

export const retrievePageMarkdown: ToolSpec<NotionState> = {
  name: "API-retrieve-page-markdown",
  description: "Notion | Retrieve a page as markdown",
  inputSchema: {
    type: "object",
    properties: {
      page_id: id("The ID of the page (or block) to retrieve as markdown."),
      include_transcript: {
        type: "boolean",
        description: "Whether to include meeting note transcripts. Defaults to false.",
      },
    },
    required: ["page_id"],
  },
  outputSchema: pageMarkdownOutput,
  annotations: { title: "Retrieve a page as markdown", readOnlyHint: true },
  handler: (args, { state }) => markdownResult(state, requirePage(state, args.page_id).id),
};

/** A selection "start...end" (or a plain snippet) → the [from, to) span it covers in the text. */
function findSelection(text: string, selection: string, path: string): [number, number] {
  const [start = "", end] = selection.split("...");
  const from = text.indexOf(start);
  if (!start || from < 0)
    throw validationError(`${path}: the text ${JSON.stringify(start)} was not found in the page.`);
  if (end === undefined) return [from, from + start.length];
  const endAt = text.indexOf(end, from + start.length);
  if (!end || endAt < 0)
    throw validationError(`${path}: the text ${JSON.stringify(end)} was not found after the start of the selection.`);
  return [from, endAt + end.length];
}

function applyUpdates(markdown: string, updates: unknown): string {
  if (!Array.isArray(updates) || updates.length === 0) {
    throw validationError("body failed validation: body.update_content.content_updates should be a non-empty array.");
  }
  let text = markdown;
  updates.forEach((update, index) => {
    const { old_str, new_str, replace_all_matches } = (update ?? {}) as Json;
    const path = `body.update_content.content_updates[${index}]`;
    if (typeof old_str !== "string" || typeof new_str !== "string") {
      throw validationError(`body failed validation: ${path} needs old_str and new_str strings.`);
    }
    const count = old_str ? text.split(old_str).length - 1 : 0;
    if (count === 0) throw validationError(`${path}.old_str ${JSON.stringify(old_str)} was not found in the page.`);
    if (count > 1 && replace_all_matches !== true) {
      throw validationError(
        `${path}.old_str matches ${count} times; make it unique or set replace_all_matches to true.`,
      );
    }
    text = replace_all_matches === true ? text.replaceAll(old_str, new_str) : text.replace(old_str, () => new_str);
  });
  return text;
}

function insertContent(markdown: string, request: Json): string {
  const content = String(request.content ?? "");
  if (typeof request.after === "string" && request.after) {
    const [, to] = findSelection(markdown, request.after, "body.insert_content.after");
    const lineEnd = markdown.indexOf("\n", to);
    const at = lineEnd < 0 ? markdown.length : lineEnd;
    return `${markdown.slice(0, at)}\n${content}${markdown.slice(at)}`;
  }
  return request.position === "start" ? `${content}\n${markdown}` : `${markdown}\n${content}`;
}

const allowDeleting = {
  type: "boolean",
  description: "Set to true to allow the operation to delete child pages or databases.",
};

export const updatePageMarkdown: ToolSpec<NotionState> = {
  name: "API-update-page-markdown",
  description: "Notion | Update page content as markdown",
  inputSchema: {
    type: "object",
    properties: {
      page_id: id("The ID of the page to update."),
      type: { type: "string", enum: ["replace_content", "update_content", "insert_content", "replace_content_range"] },
      replace_content: withStringFallback({
        type: "object",
        properties: {
          new_str: { type: "string", description: "The new markdown content for the whole page." },
          allow_deleting_content: allowDeleting,
        },
        required: ["new_str"],
      }),
      update_content: withStringFallback({
        type: "object",
        properties: {
          content_updates: {
            type: "array",
            items: {
              type: "object",
              properties: {
                old_str: { type: "string" },
                new_str: { type: "string" },
                replace_all_matches: { type: "boolean" },
              },
              required: ["old_str", "new_str"],
            },
          },
          allow_deleting_content: allowDeleting,
        },
        required: ["content_updates"],
      }),
      insert_content: withStringFallback({
        type: "object",
        properties: {
          content: { type: "string", description: "The markdown to insert." },
          after: {
            type: "string",
            description: 'Selection of existing text to insert after, as "start...end" or a unique snippet.',
          },
          position: {
            type: "string",
            description: 'Where to insert when no "after" is given: "start" or "end" (default).',
          },
        },
        required: ["content"],
      }),
      replace_content_range: withStringFallback({
        type: "object",
        properties: {
          content: { type: "string" },
          content_range: { type: "string", description: 'Selection of existing text to replace, as "start...end".' },
          allow_deleting_content: allowDeleting,
        },
        required: ["content", "content_range"],
      }),
    },
    required: ["page_id", "type"],
  },
  outputSchema: pageMarkdownOutput,
  annotations: { title: "Update page content as markdown", readOnlyHint: false, destructiveHint: true },
  handler: (args, { state, now }) => {
    const page = requirePage(state, args.page_id);
    requireEditable(page);
    const kind = String(args.type);
    const request = parseJsonParam(args[kind], `body.${kind}`) as Json | undefined;
    if (!request)
      throw validationError(`body failed validation: body.${kind} should be defined, instead was \`undefined\`.`);
    const markdown = pageMarkdown(state, page.id);
    let next: string;
    if (kind === "replace_content") next = String(request.new_str);
    else if (kind === "update_content") next = applyUpdates(markdown, request.content_updates);
    else if (kind === "insert_content") next = insertContent(markdown, request);
    else {
      const [from, to] = findSelection(
        markdown,
        String(request.content_range),
        "body.replace_content_range.content_range",
      );
      next = `${markdown.slice(0, from)}${String(request.content)}${markdown.slice(to)}`;
    }
    rewritePage(state, page.id, next, request.allow_deleting_content === true, now);
    touch(page, state, now);
    return markdownResult(state, page.id);
  },
};
