/** Reading a tool's input schema: its parameters, required ones, and the one-line form prompts list. */

import type { JsonSchema, ToolDefinition } from "../tool-protocol/types.ts";
import { truncate } from "./text.ts";

export function toolProperties(tool: ToolDefinition): Record<string, JsonSchema> {
  const properties = tool.inputSchema.properties;
  return properties && typeof properties === "object" ? (properties as Record<string, JsonSchema>) : {};
}

export function requiredParams(tool: ToolDefinition): string[] {
  const required = tool.inputSchema.required;
  return Array.isArray(required) ? required.filter((name): name is string => typeof name === "string") : [];
}

/** Parameters in the order positional arguments map onto them: required first, then the rest. */
export function parameterOrder(tool: ToolDefinition): string[] {
  const required = requiredParams(tool);
  return [...required, ...Object.keys(toolProperties(tool)).filter((name) => !required.includes(name))];
}

/** The registry name of the server of built-in tools (mock-servers/registry.json). */
const BUILTIN_SERVER = "builtin";

export function isBuiltin(tool: ToolDefinition): boolean {
  return tool.server === BUILTIN_SERVER;
}

export function findTool(tools: readonly ToolDefinition[], name: string): ToolDefinition | undefined {
  return tools.find((tool) => tool.name === name);
}

/** Concrete example values by parameter name: a small model copies the shape of what it is shown. */
const EXAMPLES_BY_NAME: [RegExp, unknown][] = [
  [/^owner$|^org(anization)?$/i, "octocat"],
  [/^repo(sitory)?$/i, "hello-world"],
  [/^(issue_?number|number)$/i, 42],
  [/^pull_?number$/i, 7],
  [/^channel(_?id)?$/i, "C0123ABCD"],
  [/^user(_?id)?$/i, "U0123ABCD"],
  [/(page|block|database|parent|data_source)_?id$/i, "59833787-2cf9-4fdf-8782-e53db20768a5"],
  [/^(calendar_?id)$/i, "primary"],
  [/^(event_?id)$/i, "evt_123"],
  [/^(text|body|message|content|comment)$/i, "Hello team"],
  [/^(title|name|subject|summary)$/i, "Weekly sync"],
  [/^(query|q|search|keywords?)$/i, "release notes"],
  [/^(path|file(name|_path)?)$/i, "docs/README.md"],
  [/^urls$/i, ["https://example.com"]],
  [/^url$/i, "https://example.com"],
  [/email/i, "ana@example.com"],
  [/^end(_?time)?$|^time_?max$/i, "2026-03-20T11:00:00Z"],
  [/^start(_?time)?$|^time(_?min)?$|datetime/i, "2026-03-20T10:00:00Z"],
  [/^(date|since|until|due(_?date)?|start_?date|end_?date)$/i, "2026-03-20"],
  [/^(branch|ref|base|from_branch)$/i, "main"],
  [/^head$/i, "feature-x"],
  [/^sha$/i, "a1b2c3d"],
  [/^(expression|expr)$/i, "12 * (3 + 4)"],
  [/^code$/i, "print(1 + 2)"],
  [/^language$/i, "python"],
];

const EXAMPLES_BY_TYPE: Record<string, unknown> = {
  string: "text",
  number: 1,
  integer: 1,
  boolean: true,
  array: [],
  object: {},
};

export function exampleValue(name: string, schema: JsonSchema): unknown {
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.default !== undefined && schema.default !== "") return schema.default;
  const byName = EXAMPLES_BY_NAME.find(([pattern]) => pattern.test(name));
  const type = firstType(schema);
  if (byName && fitsType(byName[1], type)) return byName[1];
  if (type === "array" && schema.items && typeof schema.items === "object") {
    return [exampleValue(name.replace(/s$/, ""), schema.items as JsonSchema)];
  }
  return EXAMPLES_BY_TYPE[type ?? "string"] ?? "text";
}

function firstType(schema: JsonSchema): string | undefined {
  if (typeof schema.type === "string") return schema.type;
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== "null");
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  return Array.isArray(variants) ? variants.map(firstType).find((type) => type && type !== "null") : undefined;
}

function fitsType(example: unknown, type: string | undefined): boolean {
  if (type === undefined) return true;
  if (Array.isArray(example)) return type === "array";
  if (typeof example === "number") return type === "number" || (type === "integer" && Number.isInteger(example));
  return typeof example === type;
}

/** A value in call syntax: strings double-quoted, everything else as JSON. */
export function formatArgument(value: unknown): string {
  return JSON.stringify(value) ?? "null";
}

/**
 * `name(param="example", …) - description`: required parameters only, enums inline as alternatives
 * (`method="create"|"update"`), the description cut to its first sentence.
 */
export function describeTool(tool: ToolDefinition): string {
  const properties = toolProperties(tool);
  const params = requiredParams(tool).map((name) => {
    const schema = properties[name] ?? {};
    if (Array.isArray(schema.enum) && schema.enum.length > 0) {
      return `${name}=${schema.enum.map(formatArgument).join("|")}`;
    }
    return `${name}=${formatArgument(exampleValue(name, schema))}`;
  });
  const description = firstSentence(tool.description);
  return `${tool.name}(${params.join(", ")})${description ? ` - ${description}` : ""}`;
}

/**
 * OnsetLab's tool line: required parameters as placeholders (`"..."`, `N`, `true`, `[...]`, `{...}`),
 * enums as `"a" or "b" or "c"` (more than three: the first, then the others after "or:"), the
 * description's first 80 characters.
 */
export function describeToolAbstract(tool: ToolDefinition): string {
  const properties = toolProperties(tool);
  const params = requiredParams(tool).map((name) => `${name}=${placeholder(properties[name] ?? {})}`);
  const flat = tool.description.replace(/\s+/g, " ").trim();
  const description = flat.length > 80 ? `${flat.slice(0, 80)}...` : flat;
  return `${tool.name}(${params.join(", ")})${description ? ` - ${description}` : ""}`;
}

const PLACEHOLDERS: Record<string, string> = {
  number: "N",
  integer: "N",
  boolean: "true",
  array: "[...]",
  object: "{...}",
};

function placeholder(schema: JsonSchema): string {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const values = schema.enum.map(formatArgument);
    if (values.length <= 3) return values.join(" or ");
    const others = schema.enum.slice(1, 3).map(String);
    return `${values[0]} (or: ${others.join(", ")}${schema.enum.length > 3 ? "..." : ""})`;
  }
  return PLACEHOLDERS[firstType(schema) ?? "string"] ?? '"..."';
}

/** OnsetLab's examples line: one call of the tool with plain values (an enum's first, 1, 1.0, true, ["item"], "example"). */
export function exampleCallAbstract(tool: ToolDefinition): string {
  const properties = toolProperties(tool);
  const args = requiredParams(tool).map((name) => {
    const schema = properties[name] ?? {};
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return `${name}=${formatArgument(schema.enum[0])}`;
    const plain: Record<string, string> = {
      integer: "1",
      number: "1.0",
      boolean: "true",
      array: '["item"]',
      object: "{}",
    };
    return `${name}=${plain[firstType(schema) ?? "string"] ?? '"example"'}`;
  });
  return `${tool.name}(${args.join(", ")})`;
}

/** A description's first sentence, at most 120 characters (a tool's one line). */
export function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const end = flat.search(/[.!?](\s|$)/);
  return truncate(end >= 0 ? flat.slice(0, end + 1) : flat, 120);
}

/** An action input as arguments: an object as it is; a bare value goes to the tool's main parameter. */
export function argumentsFromInput(tool: ToolDefinition | undefined, input: unknown): Record<string, unknown> {
  if (input === undefined || input === null || input === "") return {};
  if (typeof input === "object" && !Array.isArray(input)) return input as Record<string, unknown>;
  const main = tool ? parameterOrder(tool)[0] : undefined;
  return main ? { [main]: input } : { input };
}
