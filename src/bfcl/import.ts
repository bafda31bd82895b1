/**
 * BFCL questions → the project's dataset items (DESIGN §7) and MCP tool definitions. Pure functions;
 * `bfcl import` writes them to disk (write-dataset.ts), server.ts serves the tools over MCP.
 *
 * Types: dict → object, integer → integer, float → number, string → string, boolean → boolean,
 * array/tuple → array, any → {} (no constraint). Expected arguments keep BFCL's form, a list of
 * acceptable values per parameter with `""` = may be omitted — the dataset's own form, matched by
 * src/bench/scoring/arg-match.ts in json mode.
 */
import type { Category, DatasetItem, Difficulty } from "../bench/dataset/types.ts";
import { toJson } from "../python/value.ts";
import type { BfclFunctionDoc, BfclParamDoc, BfclQuestion, ExpectedCall } from "./types.ts";

export type JsonSchema = { readonly [key: string]: unknown };

/** An MCP tool definition (`tools/list` entry). */
export interface McpToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema & { readonly type: "object" };
}

/** The MCP server name the BFCL tools are served under. */
export const BFCL_SERVER = "bfcl";

/** The tag naming an item's BFCL category (`bfcl:simple`), which says where its function docs are. */
export const BFCL_TAG_PREFIX = "bfcl:";

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

/**
 * The item category from the answer, not from BFCL's label: no expected call → irrelevant, one →
 * single (BFCL's simple and multiple), several independent calls → parallel.
 */
function itemCategory(expected: readonly ExpectedCall[]): Category {
  if (expected.length === 0) return "irrelevant";
  return expected.length === 1 ? "single" : "parallel";
}

/** Arguments a call must give: expected parameters whose acceptable values do not include `""`. */
function argumentsToGive(call: ExpectedCall): number {
  let count = 0;
  for (const acceptable of call.args.values()) {
    if (!acceptable.some((value) => value.kind === "str" && value.value === "")) count++;
  }
  return count;
}

/**
 * Difficulty by what the model must get right: hard = 3 or more calls, or a call with 5 or more
 * arguments to give; medium = 2 calls, a call with 3–4 arguments, or a choice among several
 * functions; easy = the rest (one function offered, one call of at most 2 arguments, or no call).
 */
export function bfclDifficulty(functionCount: number, expected: readonly ExpectedCall[]): Difficulty {
  const mostArguments = Math.max(0, ...expected.map(argumentsToGive));
  if (expected.length >= 3 || mostArguments >= 5) return "hard";
  if (expected.length === 2 || mostArguments >= 3 || functionCount > 1) return "medium";
  return "easy";
}

/** One BFCL question (+ its possible answer) → a dataset item; `tools` lists the question's own functions. */
export function bfclQuestionToItem(
  category: string,
  question: BfclQuestion,
  expected: readonly ExpectedCall[] = [],
): DatasetItem {
  const messages = question.question[0] ?? [];
  const lastUser = messages.findLastIndex((m) => m.role === "user");
  const query = lastUser >= 0 ? messages[lastUser]!.content : "";
  const others = messages.filter((_, i) => i !== lastUser);
  const kind = itemCategory(expected);
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
    difficulty: bfclDifficulty(question.function.length, expected),
    tags: ["bfcl", `${BFCL_TAG_PREFIX}${category}`],
    ...(others.length > 0 ? { messages: others.map((m) => ({ role: m.role, content: m.content })) } : {}),
  };
}
