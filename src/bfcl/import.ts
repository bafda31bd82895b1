/**
 * BFCL questions → the project's dataset items (DESIGN §7) and MCP tool definitions. Pure functions;
 * the `bfcl import` command and the in-process MCP server that serves these tools come with the bench.
 *
 * Types: dict → object, integer → integer, float → number, string → string, boolean → boolean,
 * array/tuple → array, any → {} (no constraint). Expected arguments keep BFCL's form, a list of
 * acceptable values per parameter with `""` = may be omitted — the dataset's own form, matched by
 * src/bench/scoring/arg-match.ts in json mode.
 */
import { toJson } from "../bench/scoring/arg-match.ts";
import type { BfclFunctionDoc, BfclParamDoc, BfclQuestion, ExpectedCall } from "./types.ts";

export type JsonSchema = { readonly [key: string]: unknown };

/** An MCP tool definition (`tools/list` entry). */
export interface McpToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema & { readonly type: "object" };
}

/** A dataset item as DESIGN §7 describes it, plus `tools` (the question's own function set). */
export interface BfclDatasetItem {
  readonly id: string;
  readonly query: string;
  readonly category: "single" | "parallel" | "irrelevant";
  readonly servers: readonly string[];
  /** BFCL gives each question its own functions: the names of the tools this item exposes. */
  readonly tools: readonly string[];
  readonly route: "rewoo" | "direct";
  readonly calls: readonly { readonly tool: string; readonly args: Readonly<Record<string, readonly unknown[]>> }[];
  readonly order: "sequence" | "any";
  readonly tags: readonly string[];
  /** Earlier messages (a system prompt), when the question has more than the one user query. */
  readonly messages?: readonly { readonly role: string; readonly content: string }[];
}

/** The MCP server name the BFCL tools are served under. */
export const BFCL_SERVER = "bfcl";

const SCALAR_TYPES: Readonly<Record<string, string>> = {
  integer: "integer",
  float: "number",
  string: "string",
  boolean: "boolean",
};

// Keys carried over unchanged; BFCL's non-standard `optional` flag is dropped (required says it).
const KEPT_KEYS = ["description", "enum", "default", "format", "maximum", "minimum"] as const;

/** A BFCL parameter doc → JSON Schema. */
export function bfclTypeToJsonSchema(doc: BfclParamDoc): JsonSchema {
  const schema: Record<string, unknown> = {};
  const scalar = SCALAR_TYPES[doc.type];
  if (scalar) schema.type = scalar;
  else if (doc.type === "dict") Object.assign(schema, objectSchema(doc.properties ?? {}, doc.required));
  else if (doc.type === "array" || doc.type === "tuple") {
    schema.type = "array";
    if (doc.items) schema.items = bfclTypeToJsonSchema(doc.items);
  }
  // `any` (and an unknown type) stays unconstrained.
  for (const key of KEPT_KEYS) if (doc[key] !== undefined) schema[key] = doc[key];
  return schema;
}

function objectSchema(
  properties: Readonly<Record<string, BfclParamDoc>>,
  required: readonly string[] | undefined,
): JsonSchema & { type: "object" } {
  const props = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, bfclTypeToJsonSchema(v)]));
  return { type: "object", properties: props, ...(required && required.length > 0 ? { required: [...required] } : {}) };
}

export function bfclFunctionToTool(doc: BfclFunctionDoc): McpToolDefinition {
  return {
    name: doc.name,
    description: doc.description ?? "",
    inputSchema: objectSchema(doc.parameters.properties, doc.parameters.required),
  };
}

function itemCategory(category: string): BfclDatasetItem["category"] {
  if (category.includes("irrelevance")) return "irrelevant";
  return category.includes("parallel") ? "parallel" : "single";
}

/** One BFCL question (+ its possible answer) → a dataset item. */
export function bfclQuestionToItem(
  category: string,
  question: BfclQuestion,
  expected: readonly ExpectedCall[] = [],
): BfclDatasetItem {
  const messages = question.question[0] ?? [];
  const lastUser = messages.findLastIndex((m) => m.role === "user");
  const query = lastUser >= 0 ? messages[lastUser]!.content : "";
  const others = messages.filter((_, i) => i !== lastUser);
  const kind = itemCategory(category);
  return {
    id: question.id,
    query,
    category: kind,
    servers: [BFCL_SERVER],
    tools: question.function.map((f) => f.name),
    route: kind === "irrelevant" ? "direct" : "rewoo",
    calls: expected.map((call) => ({
      tool: call.name,
      args: Object.fromEntries([...call.args].map(([param, acceptable]) => [param, acceptable.map(toJson)])),
    })),
    order: kind === "parallel" ? "any" : "sequence",
    tags: ["bfcl", `bfcl:${category}`],
    ...(others.length > 0 ? { messages: others.map((m) => ({ role: m.role, content: m.content })) } : {}),
  };
}
