import type { ToolSpec } from "../../kit/types.ts";
import { validationError } from "../errors.ts";
import { nextId } from "../ids.ts";
import { paginate, parseJsonParam, requireDatabase, requireDataSource, requirePage } from "../lookup.ts";
import { requireEditable, sessionEdits, touch } from "../pages.ts";
import { definitionFromInput, emptyPropertyValue, findProperty, type PropertySchema } from "../properties.ts";
import { matchesFilter, sortRows } from "../query.ts";
import { renderDatabase, renderDataSource, renderPage } from "../render.ts";
import { parseRichText } from "../richtext.ts";
import {
  databaseOutput,
  dataSourceOutput,
  id,
  listOutput,
  PAGE_SIZE,
  pageOutput,
  richTextRequest,
  START_CURSOR,
  withStringFallback,
} from "../schemas.ts";
import { emojiIcon, type Json, linkChildBlock, type NotionState } from "../state.ts";

const richTextArray = (description: string) => ({ type: "array", description, items: richTextRequest, maxItems: 100 });

export const queryDataSource: ToolSpec<NotionState> = {
  name: "API-query-data-source",
  description: "Notion | Query a data source",
  inputSchema: {
    type: "object",
    properties: {
      data_source_id: id("Identifier for a Notion data source."),
      filter_properties: {
        type: "array",
        items: { type: "string" },
        description:
          "A list of page property value IDs associated with the data source. Use this param to limit the response to a specific page property value or values.",
      },
      filter: withStringFallback({
        type: "object",
        description:
          "When supplied, limits which pages are returned based on the [filter conditions](ref:post-database-query-filter).",
        additionalProperties: true,
      }),
      sorts: {
        type: "array",
        description:
          "When supplied, orders the results based on the provided [sort criteria](ref:post-database-query-sort).",
        items: {
          type: "object",
          properties: {
            property: { type: "string" },
            timestamp: { type: "string", enum: ["created_time", "last_edited_time"] },
            direction: { type: "string", enum: ["ascending", "descending"] },
          },
          required: ["direction"],
        },
      },
      start_cursor: START_CURSOR,
      page_size: PAGE_SIZE,
      archived: { type: "boolean" },
      in_trash: { type: "boolean" },
    },
    required: ["data_source_id"],
  },
  outputSchema: listOutput(pageOutput),
  annotations: { title: "Query a data source", readOnlyHint: true },
  handler: (args, { state, now }) => {
    const source = requireDataSource(state, args.data_source_id);
    const includeTrash = args.in_trash === true || args.archived === true;
    const filter = parseJsonParam(args.filter, "body.filter") as Json | undefined;
    let rows = Object.values(state.pages).filter(
      (page) =>
        page.parent.type === "data_source_id" &&
        page.parent.data_source_id === source.id &&
        (includeTrash || !page.in_trash),
    );
    if (filter && Object.keys(filter).length > 0)
      rows = rows.filter((page) => matchesFilter(source, page, filter, now));
    const sorts = (args.sorts as { direction: "ascending" | "descending" }[] | undefined) ?? [
      { timestamp: "created_time", direction: "descending" } as const,
    ];
    const list = paginate(sortRows(source, rows, sorts), (page) => page.id, args);
    const wanted = args.filter_properties as string[] | undefined;
    const results = list.results.map((page) => {
      const rendered = renderPage(state, page);
      if (wanted?.length) {
        const properties = rendered.properties as Record<string, { id: string }>;
        rendered.properties = Object.fromEntries(
          Object.entries(properties).filter(([name, value]) => wanted.includes(value.id) || wanted.includes(name)),
        );
      }
      return rendered;
    });
    return { ...list, results, type: "page_or_data_source", page_or_data_source: {} };
  },
};

export const retrieveDataSource: ToolSpec<NotionState> = {
  name: "API-retrieve-a-data-source",
  description: "Notion | Retrieve a data source",
  inputSchema: {
    type: "object",
    properties: { data_source_id: id("Identifier for a Notion data source.") },
    required: ["data_source_id"],
  },
  outputSchema: dataSourceOutput,
  annotations: { title: "Retrieve a data source", readOnlyHint: true },
  handler: (args, { state }) => renderDataSource(state, requireDataSource(state, args.data_source_id)),
};

/** Applies property definitions: add new ones, rename ({name}), change type, or remove (null). */
function applyDefinitions(
  source: { id: string; properties: Record<string, PropertySchema> },
  input: unknown,
  state: NotionState,
): void {
  const updates = parseJsonParam(input, "body.properties") as Json;
  for (const [key, def] of Object.entries(updates ?? {})) {
    const existing = findProperty(source.properties, key);
    const path = `body.properties.${key}`;
    if (def === null) {
      if (!existing) throw validationError(`${key} is not a property that exists.`);
      if (existing.type === "title") throw validationError("Cannot delete the title property.");
      delete source.properties[existing.name];
      continue;
    }
    const rename = typeof (def as Json).name === "string" ? String((def as Json).name) : undefined;
    const declaresType = Object.keys(def as Json).some((k) => k !== "name");
    const name = rename ?? existing?.name ?? key;
    const next = declaresType
      ? definitionFromInput(source.id, name, def, path, existing?.id)
      : existing && { ...existing, name };
    if (!next) throw validationError(`${path} should declare a property type for the new property "${key}".`);
    if (existing) delete source.properties[existing.name];
    source.properties[name] = next;
    // Rows follow the schema: renamed keys move, new properties start empty.
    for (const page of Object.values(state.pages)) {
      if (page.parent.type !== "data_source_id" || page.parent.data_source_id !== source.id) continue;
      const old = existing ? page.properties[existing.name] : undefined;
      if (existing) delete page.properties[existing.name];
      page.properties[name] = old && old.type === next.type ? old : emptyPropertyValue(next);
    }
  }
}

export const updateDataSource: ToolSpec<NotionState> = {
  name: "API-update-a-data-source",
  description: "Notion | Update a data source",
  inputSchema: {
    type: "object",
    properties: {
      data_source_id: id("identifier for a Notion data source"),
      title: richTextArray(
        "The updated title of the data source, if any. If not provided, the title will not be updated.",
      ),
      description: richTextArray(
        "An array of rich text objects that represents the description of the data source that is displayed in the Notion UI.",
      ),
      properties: withStringFallback({
        type: "object",
        description:
          "The properties of a data source to be changed in the request, in the form of a JSON object. If updating an existing property, then the keys are the names or IDs of the properties as they appear in Notion, and the values are property schema objects. If adding a new property, then the key is the name of the new data source property and the value is a property schema object.",
        additionalProperties: true,
      }),
    },
    required: ["data_source_id"],
  },
  outputSchema: dataSourceOutput,
  annotations: { title: "Update a data source", readOnlyHint: false, destructiveHint: true },
  handler: (args, { state, now }) => {
    const source = requireDataSource(state, args.data_source_id);
    requireEditable(source);
    if (args.title !== undefined) source.title = parseRichText(args.title, "body.title");
    if (args.description !== undefined) source.description = parseRichText(args.description, "body.description");
    if (args.properties !== undefined) applyDefinitions(source, args.properties, state);
    touch(source, state, now);
    return renderDataSource(state, source);
  },
};

export const createDataSource: ToolSpec<NotionState> = {
  name: "API-create-a-data-source",
  description: "Notion | Create a data source",
  inputSchema: {
    type: "object",
    properties: {
      parent: withStringFallback({
        type: "object",
        properties: { page_id: { type: "string", format: "uuid" }, type: { type: "string", enum: ["page_id"] } },
        required: ["page_id"],
      }),
      properties: withStringFallback({
        type: "object",
        description:
          "Property schema of data source. The keys are the names of properties as they appear in Notion and the values are [property schema objects](https://developers.notion.com/reference/property-schema-object).",
        additionalProperties: true,
      }),
      title: richTextArray(
        "Title of data source as it appears in Notion. An array of [rich text objects](https://developers.notion.com/reference/rich-text).",
      ),
    },
    required: ["parent", "properties"],
  },
  outputSchema: dataSourceOutput,
  annotations: { title: "Create a data source", readOnlyHint: false, destructiveHint: true },
  handler: (args, { state, now }) => {
    const parent = parseJsonParam(args.parent, "body.parent") as { page_id?: unknown };
    const page = requirePage(state, parent.page_id, "body.parent.page_id");
    requireEditable(page);
    const meta = sessionEdits(state, now);
    const title = args.title === undefined ? [] : parseRichText(args.title, "body.title");
    const source = {
      id: nextId(state),
      database_id: nextId(state),
      title,
      description: [],
      properties: {} as Record<string, PropertySchema>,
      templates: [],
      in_trash: false,
      ...meta,
    };
    applyDefinitions(source, args.properties, state);
    if (!Object.values(source.properties).some((prop) => prop.type === "title")) {
      throw validationError("body failed validation: body.properties should contain exactly one title property.");
    }
    state.dataSources[source.id] = source;
    state.databases[source.database_id] = {
      id: source.database_id,
      parent: { type: "page_id", page_id: page.id },
      title,
      description: [],
      icon: emojiIcon("🗂️"),
      in_trash: false,
      data_sources: [source.id],
      ...meta,
    };
    linkChildBlock(state, source.database_id, page.id, "child_database", meta);
    return renderDataSource(state, source);
  },
};

export const listDataSourceTemplates: ToolSpec<NotionState> = {
  name: "API-list-data-source-templates",
  description: "Notion | List templates in a data source",
  inputSchema: {
    type: "object",
    properties: {
      data_source_id: id("Identifier for a Notion data source."),
      start_cursor: START_CURSOR,
      page_size: PAGE_SIZE,
    },
    required: ["data_source_id"],
  },
  outputSchema: {
    type: "object",
    properties: {
      templates: { type: "array", items: { type: "object", required: ["id", "name", "is_default"] } },
      has_more: { type: "boolean" },
      next_cursor: { type: ["string", "null"] },
    },
    required: ["templates", "has_more", "next_cursor"],
  },
  annotations: { title: "List templates in a data source", readOnlyHint: true },
  handler: (args, { state }) => {
    const source = requireDataSource(state, args.data_source_id);
    const list = paginate(structuredClone(source.templates), (template) => template.id, args);
    return { templates: list.results, has_more: list.has_more, next_cursor: list.next_cursor };
  },
};

export const retrieveDatabase: ToolSpec<NotionState> = {
  name: "API-retrieve-a-database",
  description: "Notion | Retrieve a database",
  inputSchema: {
    type: "object",
    properties: { database_id: id("An identifier for the Notion database.") },
    required: ["database_id"],
  },
  outputSchema: databaseOutput,
  annotations: { title: "Retrieve a database", readOnlyHint: true },
  handler: (args, { state }) => renderDatabase(state, requireDatabase(state, args.database_id)),
};
