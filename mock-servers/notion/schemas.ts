import type { JsonSchema } from "../kit/types.ts";

/** Complex parameters also accept a JSON-encoded string, exactly as the real server's withStringFallback lists them. */
export function withStringFallback(schema: JsonSchema): JsonSchema {
  return { anyOf: [schema, { type: "string" }] };
}

export const id = (description: string): JsonSchema => ({ type: "string", description });
export const START_CURSOR: JsonSchema = {
  type: "string",
  description:
    "If supplied, this endpoint will return a page of results starting after the cursor provided. If not supplied, this endpoint will return the first page of results.",
};
export const PAGE_SIZE: JsonSchema = {
  type: "integer",
  description: "The number of items from the full list desired in the response. Maximum: 100",
  default: 100,
};

export const richTextRequest: JsonSchema = {
  type: "object",
  properties: {
    text: {
      type: "object",
      properties: {
        content: { type: "string" },
        link: { type: ["object", "null"], properties: { url: { type: "string" } }, required: ["url"] },
      },
      required: ["content"],
      additionalProperties: false,
    },
    type: { type: "string", enum: ["text"] },
  },
  required: ["text"],
  additionalProperties: false,
};

const objectOf = (name: string, required: string[] = []): JsonSchema => ({
  type: "object",
  properties: { object: { const: name }, id: { type: "string" } },
  required: ["object", "id", ...required],
});

export const pageOutput = objectOf("page", ["properties", "parent", "in_trash"]);
export const blockOutput = objectOf("block", ["type", "has_children"]);
export const userOutput = objectOf("user", ["type"]);
export const commentOutput = objectOf("comment", ["discussion_id", "rich_text"]);
export const dataSourceOutput = objectOf("data_source", ["properties", "title"]);
export const databaseOutput = objectOf("database", ["data_sources", "title"]);

export function listOutput(item: JsonSchema, extra: Record<string, JsonSchema> = {}): JsonSchema {
  return {
    type: "object",
    properties: {
      object: { const: "list" },
      results: { type: "array", items: item },
      next_cursor: { type: ["string", "null"] },
      has_more: { type: "boolean" },
      ...extra,
    },
    required: ["object", "results", "next_cursor", "has_more"],
  };
}

export const pageMarkdownOutput: JsonSchema = {
  type: "object",
  properties: {
    object: { const: "page_markdown" },
    id: { type: "string" },
    markdown: { type: "string" },
    truncated: { type: "boolean" },
    unknown_block_ids: { type: "array", items: { type: "string" } },
  },
  required: ["object", "id", "markdown"],
};

export const blockRequest: JsonSchema = {
  type: "object",
  description:
    'A block object, e.g. {"type":"paragraph","paragraph":{"rich_text":[{"type":"text","text":{"content":"Hello"}}]}}. Supported types: paragraph, heading_1, heading_2, heading_3, bulleted_list_item, numbered_list_item, to_do, toggle, quote, callout, code, divider.',
  properties: { type: { type: "string" } },
  additionalProperties: true,
};
