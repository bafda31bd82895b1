/**
 * One multi-turn entry's environments served over MCP: a real SDK Server whose tools are the
 * involved environments' functions, documented from BFCL's `multi_turn_func_doc`, minus the entry's
 * excluded functions and (until their turn) its held-back ones. A call runs as BFCL runs an FC-mode
 * call — `name(k=repr(v),…)` on the entry's instances — and returns BFCL's result string as text.
 * The instances live as long as the server, so a conversation runner keeps one per entry, calls
 * `offerTurn(t)` before each user turn, and reads the state for the checker from `environments`.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { fromJson, type PyValue, py, pyRepr } from "../../python/value.ts";
import { BfclInputError } from "../errors.ts";
import { bfclFunctionToTool } from "../import.ts";
import { DEFAULT_BFCL_V4_DATA_DIR } from "../paths.ts";
import type { BfclFunctionDoc, BfclParamDoc } from "../types.ts";
import { isLongContext, type MultiTurnEntry } from "./entries.ts";
import { EnvironmentSet } from "./execute.ts";
import { ENVIRONMENTS, isEnvironmentName } from "./registry.ts";

const docCache = new Map<string, readonly BfclFunctionDoc[]>();

/** The function docs of one environment (JSON Lines in `<dataDir>/multi_turn_func_doc/`). */
export function environmentDocs(environment: string, dataDir = DEFAULT_BFCL_V4_DATA_DIR): readonly BfclFunctionDoc[] {
  if (!isEnvironmentName(environment))
    throw new BfclInputError("BFCL_UNKNOWN_ENVIRONMENT", `unknown environment ${environment}`, {
      context: { environment },
    });
  const file = join(dataDir, "multi_turn_func_doc", ENVIRONMENTS[environment].docFile);
  const hit = docCache.get(file);
  if (hit) return hit;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (cause) {
    throw new BfclInputError("BFCL_MISSING_FILE", `${file}: cannot read the ${environment} function docs`, {
      context: { file },
      cause,
    });
  }
  const docs = text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as BfclFunctionDoc);
  docCache.set(file, docs);
  return docs;
}

/** The functions an entry offers at `turn`: its environments' docs, minus excluded and not-yet-offered ones. */
export function offeredFunctions(
  entry: MultiTurnEntry,
  turn: number,
  dataDir = DEFAULT_BFCL_V4_DATA_DIR,
): BfclFunctionDoc[] {
  const heldBack = new Set<string>();
  for (const [from, names] of entry.missedFunctions) if (turn < from) for (const name of names) heldBack.add(name);
  const excluded = new Set(entry.excludedFunctions);
  return entry.involvedClasses
    .flatMap((name) => environmentDocs(name, dataDir))
    .filter((doc) => !excluded.has(doc.name) && !heldBack.has(doc.name));
}

/**
 * BFCL's convert_to_function_call: FC arguments → the call text its executor evaluates. JSON through
 * MCP cannot tell `1.0` from `1`, so with the function's doc a whole number given for a `float`
 * parameter (or a list of floats' item) is written as the float BFCL's model would have sent.
 */
export function callText(name: string, args: Record<string, unknown>, doc?: BfclFunctionDoc): string {
  const properties = doc?.parameters.properties ?? {};
  const parts = Object.entries(args).map(([k, v]) => `${k}=${pyRepr(typedValue(v, properties[k]))}`);
  return `${name}(${parts.join(",")})`;
}

function typedValue(value: unknown, doc: BfclParamDoc | undefined): PyValue {
  if (doc?.type === "float" && typeof value === "number") return py.float(value);
  if (doc?.type === "array" && Array.isArray(value)) return py.list(value.map((item) => typedValue(item, doc.items)));
  return fromJson(value);
}

export interface EnvironmentServer {
  readonly server: Server;
  readonly environments: EnvironmentSet;
  /** Offer the functions of turn `turn` (held-back functions appear from their turn on). */
  offerTurn(turn: number): void;
}

export function createEnvironmentServer(entry: MultiTurnEntry, dataDir = DEFAULT_BFCL_V4_DATA_DIR): EnvironmentServer {
  const environments = new EnvironmentSet(entry.involvedClasses, entry.initialConfig, isLongContext(entry.id));
  let offered = new Map<string, Tool>();
  const docs = new Map<string, BfclFunctionDoc>();
  const offerTurn = (turn: number): void => {
    offered = new Map(
      offeredFunctions(entry, turn, dataDir).map((doc) => {
        docs.set(doc.name, doc);
        const tool = bfclFunctionToTool(doc);
        return [
          doc.name,
          { name: tool.name, description: tool.description, inputSchema: tool.inputSchema as Tool["inputSchema"] },
        ];
      }),
    );
  };
  offerTurn(0);
  const server = new Server({ name: `bfcl-${entry.id}`, version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...offered.values()] }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name } = request.params;
    if (!offered.has(name)) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`, { tool: name });
    const result = environments.executeOne(callText(name, request.params.arguments ?? {}, docs.get(name)));
    return { content: [{ type: "text", text: result }], isError: result.startsWith("Error during execution:") };
  });
  return { server, environments, offerTurn };
}
