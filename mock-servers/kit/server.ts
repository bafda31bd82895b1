import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { ValidateFunction } from "ajv";
import { seededRandom } from "../../src/random.ts";
import { TOOL_ERROR_CODES } from "../../src/tool-protocol/retry.ts";
import { type BudgetKind, JSONRPC_PERMANENT_ERROR, ToolBudgetError, ToolError } from "./errors.ts";
import { type FaultConfig, MOCK_NOW, type ServerSpec, type ToolSpec } from "./types.ts";
import { compileSchema, createAjv, describeArgumentErrors } from "./validation.ts";

/** Hidden control tools: never listed, callable by the harness only (names start with `__`). */
export const CONTROL_TOOLS = {
  reset: "__reset",
  state: "__state",
  check: "__check",
  faults: "__faults",
} as const;

export interface MockServerOptions {
  faults?: FaultConfig;
  /** What a crash fault does. Default: exit the process (stdio); in-process hosts close the transport. */
  onCrash?: () => void;
}

export interface MockServer<S> {
  server: Server;
  /** Live state, for tests that look inside. */
  readonly state: S;
  reset(): void;
}

interface CompiledTool<S> {
  spec: ToolSpec<S>;
  validate: ValidateFunction;
}

/** Builds a real MCP server (low-level SDK Server) from a spec: listing, validated calls, faults, control tools. */
export function createMockServer<S>(spec: ServerSpec<S>, options: MockServerOptions = {}): MockServer<S> {
  const ajv = createAjv();
  const tools = new Map<string, CompiledTool<S>>();
  for (const tool of spec.tools) {
    if (tools.has(tool.name)) throw new Error(`${spec.name}: duplicate tool ${tool.name}`);
    tools.set(tool.name, { spec: tool, validate: compileSchema(ajv, tool.inputSchema) });
  }
  const listed: Tool[] = spec.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool["inputSchema"],
    outputSchema: tool.outputSchema as Tool["outputSchema"],
    annotations: tool.annotations,
  }));

  let state = spec.createState();
  let faults: FaultConfig = options.faults ?? {};
  let random = seededRandom(faults.seed ?? 0);
  let toolCalls = 0;
  const crash = options.onCrash ?? (() => process.exit(70));

  const reset = () => {
    state = spec.createState();
    random = seededRandom(faults.seed ?? 0);
  };

  const server = new Server(
    { name: `mock-${spec.name}`, version: spec.version },
    { capabilities: { tools: {} }, instructions: spec.purpose },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name } = request.params;
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;

    if (name.startsWith("__")) return control(name, args);

    const tool = tools.get(name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`, { tool: name });

    toolCalls += 1;
    if (faults.crashAfter !== undefined && toolCalls >= faults.crashAfter) {
      crash();
      return new Promise<never>(() => {});
    }
    await injectLatency();
    if (draw(faults.transientRate)) {
      throw new McpError(ErrorCode.InternalError, `Transient failure in ${spec.name}.${name} (injected)`);
    }
    if (draw(faults.permanentRate)) {
      throw new McpError(JSONRPC_PERMANENT_ERROR, `Permanent failure in ${spec.name}.${name} (injected)`);
    }

    if (!tool.validate(args)) {
      const problems = describeArgumentErrors(tool.validate.errors);
      throw new McpError(ErrorCode.InvalidParams, `${name}: ${problems.messages.join("; ")}`, {
        tool: name,
        missing: problems.missing,
      });
    }

    try {
      const result = await tool.spec.handler(args, { state, now: MOCK_NOW });
      const structured = (result ?? {}) as Record<string, unknown>;
      if (draw(faults.malformedRate)) {
        return { content: [{ type: "text", text: "{}" }], structuredContent: { malformed: "fault-injected" } };
      }
      return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
    } catch (error) {
      if (error instanceof ToolError) {
        return { isError: true, content: [{ type: "text", text: `${error.code}: ${error.message}` }] };
      }
      throw failureOf(spec.name, name, error);
    }
  });

  function control(name: string, args: Record<string, unknown>): CallToolResult {
    switch (name) {
      case CONTROL_TOOLS.reset:
        reset();
        return structured({ ok: true });
      case CONTROL_TOOLS.state:
        return structured({ server: spec.name, state: JSON.parse(JSON.stringify(state)) });
      case CONTROL_TOOLS.check: {
        const expect = String(args.expect ?? "");
        const check = spec.checks[expect];
        if (!check) {
          const known = Object.keys(spec.checks).join(", ") || "(none)";
          throw new McpError(
            ErrorCode.InvalidParams,
            `${spec.name}: unknown state check "${expect}" (known: ${known})`,
          );
        }
        return structured({ expect, ...check(state, (args.args ?? {}) as Record<string, unknown>) });
      }
      case CONTROL_TOOLS.faults:
        faults = (args.config ?? {}) as FaultConfig;
        random = seededRandom(faults.seed ?? 0);
        return structured({ ok: true });
      default:
        throw new McpError(ErrorCode.InvalidParams, `Unknown control tool: ${name}`);
    }
  }

  function draw(rate: number | undefined): boolean {
    return rate !== undefined && rate > 0 && random() < rate;
  }

  async function injectLatency(): Promise<void> {
    const latency = faults.latencyMs;
    if (latency === undefined) return;
    const ms = typeof latency === "number" ? latency : latency.min + random() * (latency.max - latency.min);
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
  }

  return {
    server,
    get state() {
      return state;
    },
    reset,
  };
}

const BUDGET_CODES: Record<BudgetKind, number> = {
  time: TOOL_ERROR_CODES.timeLimit,
  memory: TOOL_ERROR_CODES.memoryLimit,
  crash: TOOL_ERROR_CODES.deterministicFailure,
};

/**
 * A handler's unexpected failure as a JSON-RPC error of its own: the SDK would send -32603 (internal, which
 * clients retry), but a stack overflow or a sandbox abort fails the same way on every try.
 */
function failureOf(server: string, tool: string, error: unknown): McpError {
  if (error instanceof McpError) return error;
  if (error instanceof ToolBudgetError)
    return new McpError(BUDGET_CODES[error.kind], `${server}.${tool}: ${error.message}`);
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new McpError(TOOL_ERROR_CODES.deterministicFailure, `${server}.${tool} failed on this input: ${message}`);
}

function structured(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
}
