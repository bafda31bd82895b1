import type { ToolSpec } from "../../kit/types.ts";
import { type BlockDraft, draftFromRequest } from "../blocks.ts";
import { notFound, validationError } from "../errors.ts";
import { normalizeId } from "../ids.ts";
import { paginate, parseJsonParam, requireDatabase, requirePage } from "../lookup.ts";
import { applyProperties, createPage, reparentPage, requireEditable, schemaOf, touch } from "../pages.ts";
import { emptyPropertyValue, findProperty } from "../properties.ts";
import { renderPage } from "../render.ts";
import { id, pageOutput, withStringFallback } from "../schemas.ts";
import { emojiIcon, type Json, type NotionState, type PageRecord, type ParentRef } from "../state.ts";

const UUID = { type: "string", format: "uuid" };

export const retrievePage: ToolSpec<NotionState> = {
  name: "API-retrieve-a-page",
  description: "Notion | Retrieve a page",
  inputSchema: {
    type: "object",
    properties: {
      page_id: id("Identifier for a Notion page"),
      filter_properties: {
        type: "string",
        description:
          "A list of page property value IDs associated with the page. Use this param to limit the response to a specific page property value or values. To retrieve multiple properties, specify each page property ID. For example: `?filter_properties=iAk8&filter_properties=b7dh`.",
      },
    },
    required: ["page_id"],
  },
  outputSchema: pageOutput,
  annotations: { title: "Retrieve a page", readOnlyHint: true },
  handler: (args, { state }) => {
    const page = renderPage(state, requirePage(state, args.page_id));
    if (typeof args.filter_properties === "string" && args.filter_properties) {
      const wanted = args.filter_properties
        .split(/[,&]/)
        .map((part) => decodeURIComponent(part.replace(/^filter_properties=/, "")));
      const properties = page.properties as Record<string, { id: string }>;
      page.properties = Object.fromEntries(
        Object.entries(properties).filter(([name, value]) => wanted.includes(value.id) || wanted.includes(name)),
      );
    }
    return page;
  },
};

/** Icon and cover arrive as objects, JSON strings or (icon) a bare emoji. */
function parseIcon(value: unknown): Json | null | undefined {
  if (value === undefined) return undefined;
  const parsed =
    typeof value === "string" && !value.trim().startsWith("{") ? { emoji: value } : parseJsonParam(value, "body.icon");
  if (parsed === null) return null;
  const emoji = (parsed as { emoji?: unknown }).emoji;
  if (typeof emoji !== "string")
    throw validationError("body failed validation: body.icon.emoji should be defined, instead was `undefined`.");
  return emojiIcon(emoji);
}

function parseCover(value: unknown): Json | null | undefined {
  if (value === undefined) return undefined;
  const parsed =
    typeof value === "string" && /^https?:\/\//.test(value)
      ? { external: { url: value } }
      : parseJsonParam(value, "body.cover");
  if (parsed === null) return null;
  const url = (parsed as { external?: { url?: unknown } }).external?.url;
  if (typeof url !== "string")
    throw validationError(
      "body failed validation: body.cover.external.url should be defined, instead was `undefined`.",
    );
  return { type: "external", external: { url } };
}

export const patchPage: ToolSpec<NotionState> = {
  name: "API-patch-page",
  description: "Notion | Update page properties",
  inputSchema: {
    type: "object",
    properties: {
      page_id: id("The identifier for the Notion page to be updated."),
      properties: withStringFallback({
        type: "object",
        description:
          "The property values to update for the page. The keys are the names or IDs of the property and the values are property values. If a page property ID is not included, then it is not changed.",
        properties: {
          title: { type: "array", items: richTextItem(), maxItems: 100 },
          type: { type: "string", enum: ["title"] },
        },
        additionalProperties: true,
      }),
      in_trash: {
        type: "boolean",
        description: "Set to true to delete a block. Set to false to restore a block.",
        default: false,
      },
      archived: { type: "boolean" },
      icon: withStringFallback({
        type: "object",
        description:
          "A page icon for the page. Supported types are [external file object](https://developers.notion.com/reference/file-object) or [emoji object](https://developers.notion.com/reference/emoji-object).",
        properties: { emoji: { type: "string" } },
        required: ["emoji"],
      }),
      cover: withStringFallback({
        type: "object",
        description:
          "A cover image for the page. Only [external file objects](https://developers.notion.com/reference/file-object) are supported.",
        properties: {
          external: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
          type: { type: "string", enum: ["external"] },
        },
        required: ["external"],
      }),
    },
    required: ["page_id"],
  },
  outputSchema: pageOutput,
  annotations: { title: "Update page properties", readOnlyHint: false, destructiveHint: true },
  handler: (args, { state, now }) => {
    const page = requirePage(state, args.page_id);
    const trash = args.in_trash ?? args.archived;
    if (trash === false) page.in_trash = false;
    const updates = parseJsonParam(args.properties, "body.properties");
    const icon = parseIcon(args.icon);
    const cover = parseCover(args.cover);
    if (updates !== undefined || icon !== undefined || cover !== undefined) requireEditable(page);
    applyProperties(state, page, updates, schemaOf(state, page));
    if (icon !== undefined) page.icon = icon;
    if (cover !== undefined) page.cover = cover;
    if (trash === true) page.in_trash = true;
    touch(page, state, now);
    return renderPage(state, page);
  },
};

function richTextItem() {
  return {
    type: "object",
    properties: {
      text: {
        type: "object",
        properties: { content: { type: "string", maxLength: 2000 }, link: { type: ["object", "null"] } },
        required: ["content"],
      },
      type: { type: "string", enum: ["text"] },
    },
    required: ["text"],
  };
}

/** Resolves a create/move parent: a page, a database (its first data source) or the workspace. */
function resolveParent(state: NotionState, input: unknown): ParentRef {
  const parent = parseJsonParam(input, "body.parent") as Json;
  if (parent.page_id !== undefined) {
    const page = requirePage(state, parent.page_id, "body.parent.page_id");
    requireEditable(page);
    return { type: "page_id", page_id: page.id };
  }
  if (parent.database_id !== undefined || parent.data_source_id !== undefined) {
    if (parent.data_source_id !== undefined) {
      const sourceId = normalizeId(parent.data_source_id, "body.parent.data_source_id");
      const source = state.dataSources[sourceId];
      if (!source) throw notFound("data_source", sourceId);
      return { type: "data_source_id", data_source_id: source.id, database_id: source.database_id };
    }
    const database = requireDatabase(state, parent.database_id, "body.parent.database_id");
    const sourceId = database.data_sources[0]!;
    return { type: "data_source_id", data_source_id: sourceId, database_id: database.id };
  }
  if (parent.type === "workspace") return { type: "workspace" };
  throw validationError('body failed validation: body.parent should have page_id, database_id or type "workspace".');
}

/** post-page's children are strings: a JSON-encoded block, or plain text that becomes a paragraph. */
function childFromString(value: string, index: number): BlockDraft {
  const path = `body.children[${index}]`;
  if (value.trim().startsWith("{")) return draftFromRequest(value, path);
  return draftFromRequest({ type: "paragraph", paragraph: { rich_text: [{ text: { content: value } }] } }, path);
}

export const postPage: ToolSpec<NotionState> = {
  name: "API-post-page",
  description: "Notion | Create a page",
  inputSchema: {
    type: "object",
    properties: {
      parent: withStringFallback({
        oneOf: [
          { type: "object", properties: { page_id: UUID }, required: ["page_id"] },
          {
            type: "object",
            title: "dataSourceIdParentRequest",
            properties: { type: { type: "string", enum: ["database_id"] }, database_id: UUID },
            required: ["database_id"],
          },
          { type: "object", properties: { type: { type: "string", enum: ["workspace"] } }, required: ["type"] },
        ],
      }),
      properties: withStringFallback({
        type: "object",
        properties: {
          title: { type: "array", items: richTextItem(), maxItems: 100 },
          type: { type: "string", enum: ["title"] },
        },
        additionalProperties: true,
      }),
      children: {
        type: "array",
        description:
          "The content to be rendered on the new page, represented as an array of [block objects](https://developers.notion.com/reference/block).",
        items: { type: "string" },
      },
      icon: {
        type: "string",
        description:
          "The icon of the new page. Either an [emoji object](https://developers.notion.com/reference/emoji-object) or an [external file object](https://developers.notion.com/reference/file-object).",
      },
      cover: {
        type: "string",
        description:
          "The cover image of the new page, represented as a [file object](https://developers.notion.com/reference/file-object).",
      },
    },
    required: ["parent", "properties"],
  },
  outputSchema: pageOutput,
  annotations: { title: "Create a page", readOnlyHint: false, destructiveHint: true },
  handler: (args, { state, now }) => {
    const parent = resolveParent(state, args.parent);
    const children = ((args.children as string[] | undefined) ?? []).map(childFromString);
    const page = createPage(
      state,
      {
        parent,
        properties: parseJsonParam(args.properties, "body.properties"),
        children,
        icon: parseIcon(args.icon) ?? null,
        cover: parseCover(args.cover) ?? null,
      },
      now,
    );
    return renderPage(state, page);
  },
};

export const retrievePageProperty: ToolSpec<NotionState> = {
  name: "API-retrieve-a-page-property",
  description: "Notion | Retrieve a page property item",
  inputSchema: {
    type: "object",
    properties: {
      page_id: id("Identifier for a Notion page"),
      property_id: id(
        "Identifier for a page [property](https://developers.notion.com/reference/page#all-property-values)",
      ),
      page_size: {
        type: "integer",
        description:
          "For paginated properties. The max number of property item objects on a page. The default size is 100",
      },
      start_cursor: { type: "string", description: "For paginated properties." },
    },
    required: ["page_id", "property_id"],
  },
  outputSchema: { type: "object", properties: { object: { enum: ["list", "property_item"] } }, required: ["object"] },
  annotations: { title: "Retrieve a page property item", readOnlyHint: true },
  handler: (args, { state }) => {
    const page = requirePage(state, args.page_id);
    const key = String(args.property_id);
    const prop = findProperty(schemaOf(state, page), key);
    const value = prop ? page.properties[prop.name] : undefined;
    if (!prop || !value) throw notFound("property", key);
    const raw = value[value.type];
    if (!Array.isArray(raw) || value.type === "multi_select") {
      return { object: "property_item", id: value.id, type: value.type, [value.type]: structuredClone(raw) };
    }
    const items = raw.map((item, index) => ({
      object: "property_item",
      id: `${value.id}:${index}`,
      type: value.type,
      [value.type]: structuredClone(item),
    }));
    const list = paginate(items, (item) => item.id, args);
    return {
      ...list,
      type: "property_item",
      property_item: { id: value.id, next_url: null, type: value.type, [value.type]: {} },
    };
  },
};

function isDescendant(state: NotionState, candidate: ParentRef, page: PageRecord): boolean {
  let current: ParentRef | undefined = candidate;
  while (current?.type === "page_id") {
    if (current.page_id === page.id) return true;
    current = state.pages[current.page_id]?.parent;
  }
  return false;
}

export const movePage: ToolSpec<NotionState> = {
  name: "API-move-page",
  description: "Notion | Move a page",
  inputSchema: {
    type: "object",
    properties: {
      page_id: id("The ID of the page to move."),
      parent: withStringFallback({
        oneOf: [
          {
            type: "object",
            properties: { type: { type: "string", enum: ["page_id"] }, page_id: UUID },
            required: ["type", "page_id"],
          },
          {
            type: "object",
            properties: { type: { type: "string", enum: ["database_id"] }, database_id: UUID },
            required: ["type", "database_id"],
          },
          { type: "object", properties: { type: { type: "string", enum: ["workspace"] } }, required: ["type"] },
        ],
      }),
    },
    required: ["page_id", "parent"],
  },
  outputSchema: pageOutput,
  annotations: { title: "Move a page", readOnlyHint: false, destructiveHint: true },
  handler: (args, { state, now }) => {
    const page = requirePage(state, args.page_id);
    requireEditable(page);
    const parent = resolveParent(state, args.parent);
    if (isDescendant(state, parent, page)) {
      throw validationError(`Cannot move page ${page.id} under itself or one of its descendants.`);
    }
    const title = Object.values(page.properties).find((value) => value.type === "title");
    reparentPage(state, page, parent, now);
    // The page takes the new parent's schema; only the title carries over.
    const schema = schemaOf(state, page);
    page.properties = {};
    for (const prop of Object.values(schema)) {
      page.properties[prop.name] =
        prop.type === "title" && title ? { ...title, id: prop.id } : emptyPropertyValue(prop);
    }
    return renderPage(state, page);
  },
};
