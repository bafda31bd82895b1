/**
 * `dataset new`: a starter dataset for the connected servers, one draft item per tool with example
 * arguments derived from its input schema (required parameters only), each marked TODO so that
 * `dataset check` guides the author through finishing it (todo.ts).
 */
import { expectedForm } from "../../gold-value.ts";
import type { JsonSchema, ToolDefinition } from "../../tool-protocol/types.ts";
import { TODO_MARK, TODO_TAG } from "./todo.ts";
import type { ConversationItem, DatasetItem } from "./types.ts";

/** One draft item per tool, in the servers' listing order. */
export function starterItems(
  tools: readonly ToolDefinition[],
  readOnly: (tool: ToolDefinition) => boolean,
): DatasetItem[] {
  return tools.map((tool) => {
    const summary = tool.description.split(/(?<=\.)\s|\n/)[0]?.trim();
    return {
      id: itemId(tool),
      query: `${TODO_MARK}: a question a user would ask that needs ${tool.name}${summary ? ` (${summary})` : ""}`,
      category: "single",
      servers: [tool.server],
      route: "rewoo",
      calls: [{ tool: tool.name, args: draftCallArgs(tool.inputSchema) }],
      order: "sequence",
      difficulty: "easy",
      tags: readOnly(tool) ? [TODO_TAG] : [TODO_TAG, "write"],
    };
  });
}

/**
 * `dataset new --conversations`: one draft conversation per server, a follow-up of two turns: the first
 * calls the server's first read-only tool, the second refers to its result. Both turns are TODO drafts.
 */
export function starterConversations(
  tools: readonly ToolDefinition[],
  readOnly: (tool: ToolDefinition) => boolean,
): ConversationItem[] {
  const servers = [...new Set(tools.map((tool) => tool.server))];
  return servers.flatMap((server) => {
    const own = tools.filter((tool) => tool.server === server);
    const first = own.find(readOnly) ?? own[0];
    const second = own.find((tool) => tool !== first) ?? first;
    if (!first || !second) return [];
    const turn = (tool: ToolDefinition, what: string) => ({
      user: `${TODO_MARK}: ${what} (needs ${tool.name})`,
      calls: [{ tool: tool.name, args: draftCallArgs(tool.inputSchema) }],
    });
    return [
      {
        id: `${server}-conversation-1`.toLowerCase().replace(/[^a-z0-9_.:-]+/g, "-"),
        category: "conversation" as const,
        kind: "follow_up" as const,
        servers: [server],
        turns: [
          turn(first, "a first request"),
          turn(second, "a follow-up that refers to the first answer (it, that one, the first)"),
        ],
        tags: [TODO_TAG],
      },
    ];
  });
}

function itemId(tool: ToolDefinition): string {
  return `${tool.server}-${tool.name}`.toLowerCase().replace(/[^a-z0-9_.:-]+/g, "-");
}

/**
 * A draft value per required parameter: an enum's first value, a number's minimum (or 1), "TODO" for text.
 * Not the agent's plausible examples (agent/tool-schema.ts exampleValue): a draft must show the author what
 * is still to write, and `dataset check` finds the TODOs.
 */
function draftArgs(schema: JsonSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = (schema.required ?? []) as string[];
  return Object.fromEntries(required.map((name) => [name, draftValue(properties[name] ?? {})]));
}

function draftValue(schema: JsonSchema): unknown {
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(variants) && variants.length > 0) return draftValue(variants[0]!);
  const type = Array.isArray(schema.type) ? schema.type.find((kind) => kind !== "null") : schema.type;
  switch (type) {
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 1;
    case "boolean":
      return false;
    case "array": {
      const items = schema.items as JsonSchema | undefined;
      const count = typeof schema.minItems === "number" ? Math.max(1, schema.minItems) : 1;
      return Array.from({ length: count }, () => draftValue(items ?? {}));
    }
    case "object":
      return draftArgs(schema);
    default:
      return TODO_MARK;
  }
}

/** The draft arguments in the dataset's form (an array value wrapped as one alternative, at every depth). */
function draftCallArgs(schema: JsonSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return Object.fromEntries(
    Object.entries(draftArgs(schema)).map(([name, value]) => [name, expectedForm(value, properties[name])]),
  );
}

/** The suite written beside a starter file: the servers it was made from, no clock until the author sets one. */
export function starterSuite(name: string, servers: readonly string[]): string {
  return [
    `# The suite of ${name}.jsonl (datasets/README.md, "Suites").`,
    `name: ${name}`,
    "servers:",
    ...servers.map((server) => `  - ${server}`),
    '# "today" as the planner is told it (an ISO date-time such as 2026-03-16T09:30:00Z), or none',
    "clock: none",
    "exposure: session",
    "",
  ].join("\n");
}
