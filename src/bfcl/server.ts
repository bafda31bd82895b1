/**
 * An in-process MCP server built from one BFCL question's function docs (each question has its own
 * function set; names repeat across questions with different docs). A real SDK Server with
 * tools/list and tools/call: arguments are validated against the tool's JSON Schema with ajv, and a
 * valid call returns a structured echo — which tool, with which arguments — under an outputSchema.
 * BFCL's functions have no implementation; what matters is what was called, and that it was valid.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { Ajv, ValidateFunction } from "ajv";
import { compileSchema, createAjv, describeArgumentErrors } from "../../mock-servers/kit/validation.ts";
import { BfclInputError } from "./errors.ts";
import { BFCL_SERVER, bfclFunctionToTool } from "./import.ts";
import type { BfclFunctionDoc } from "./types.ts";

/** What every BFCL tool returns: the call, echoed. */
export interface BfclEcho {
  tool: string;
  arguments: Record<string, unknown>;
}

export const BFCL_ECHO_SCHEMA: NonNullable<Tool["outputSchema"]> = {
  type: "object",
  properties: {
    tool: { type: "string", description: "the function that was called" },
    arguments: { type: "object", description: "the arguments it was called with, as received" },
  },
  required: ["tool", "arguments"],
  additionalProperties: false,
};

interface CompiledFunction {
  readonly tool: Tool;
  readonly validate: ValidateFunction;
}

// One ajv for every BFCL server, and one compiled validator per function doc: the bench opens a
// server per item, and compiling is most of what opening one costs. Docs come from the catalog's
// cache, so the same question served again finds its validators here.
let sharedAjv: Ajv | undefined;
const compiledDocs = new WeakMap<BfclFunctionDoc, CompiledFunction>();

function compileFunction(doc: BfclFunctionDoc, source: string): CompiledFunction {
  const hit = compiledDocs.get(doc);
  if (hit) return hit;
  const tool = bfclFunctionToTool(doc);
  sharedAjv ??= createAjv();
  let validate: ValidateFunction;
  try {
    validate = compileSchema(sharedAjv, tool.inputSchema);
  } catch (cause) {
    throw new BfclInputError(
      "BFCL_BAD_FUNCTION_DOC",
      `${source}: function ${doc.name}: its parameters do not make a valid JSON Schema: ${(cause as Error).message}`,
      { context: { source, function: doc.name }, cause },
    );
  }
  const listed: Tool = {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool["inputSchema"],
    outputSchema: BFCL_ECHO_SCHEMA,
  };
  const compiled = { tool: listed, validate };
  compiledDocs.set(doc, compiled);
  return compiled;
}

/** `source` names where the docs came from (a question id) in error messages. */
export function createBfclServer(functions: readonly BfclFunctionDoc[], source: string): Server {
  const validators = new Map<string, ValidateFunction>();
  const listed: Tool[] = [];
  for (const doc of functions) {
    if (validators.has(doc.name)) {
      throw new BfclInputError("BFCL_DUPLICATE_FUNCTION", `${source}: function ${doc.name} is documented twice`, {
        context: { source, function: doc.name },
      });
    }
    const { tool, validate } = compileFunction(doc, source);
    validators.set(doc.name, validate);
    listed.push(tool);
  }

  const server = new Server({ name: `${BFCL_SERVER}-${source}`, version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name } = request.params;
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const validate = validators.get(name);
    if (!validate) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`, { tool: name });
    if (!validate(args)) {
      const problems = describeArgumentErrors(validate.errors);
      throw new McpError(ErrorCode.InvalidParams, `${name}: ${problems.messages.join("; ")}`, {
        tool: name,
        missing: problems.missing,
      });
    }
    const echo: BfclEcho = { tool: name, arguments: args };
    return { content: [{ type: "text", text: JSON.stringify(echo) }], structuredContent: { ...echo } };
  });
  return server;
}
