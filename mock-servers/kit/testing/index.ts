import { McpError } from "@modelcontextprotocol/sdk/types.js";
import type { ValidateFunction } from "ajv";
import { connectInMemory, type InMemoryConnection } from "../memory.ts";
import { CONTROL_TOOLS } from "../server.ts";
import type { FaultConfig, ServerSpec } from "../types.ts";
import { createAjv } from "../validation.ts";

/** What a tool call came back as, for tests: data (schema-checked), a tool error, or a JSON-RPC error. */
export type CallOutcome =
  | { kind: "ok"; data: Record<string, unknown> }
  | { kind: "tool_error"; text: string }
  | { kind: "rpc_error"; code: number; message: string; data: unknown };

export interface TestServer<S> extends InMemoryConnection<S> {
  call(name: string, args?: Record<string, unknown>): Promise<CallOutcome>;
  /** Calls a tool and returns its data; throws with the error text when it did not succeed. */
  ok(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
  dump(): Promise<unknown>;
  check(expect: string, args: Record<string, unknown>): Promise<{ pass: boolean; detail: string }>;
}

const outputAjv = createAjv();
const compiledOutputSchemas = new WeakMap<ServerSpec<unknown>, Map<string, ValidateFunction>>();

/**
 * A spec's output validators, each compiled when its tool is first called and kept for the test file:
 * compiling all of a 43-tool server's schemas on every open cost seconds per test.
 */
function outputValidatorsOf<S>(spec: ServerSpec<S>): (name: string) => ValidateFunction | undefined {
  const key = spec as ServerSpec<unknown>;
  const compiled = compiledOutputSchemas.get(key) ?? new Map<string, ValidateFunction>();
  compiledOutputSchemas.set(key, compiled);
  return (name) => {
    const known = compiled.get(name);
    if (known) return known;
    const tool = spec.tools.find((candidate) => candidate.name === name);
    if (!tool) return undefined;
    const validate = outputAjv.compile(tool.outputSchema);
    compiled.set(name, validate);
    return validate;
  };
}

const errorsText = (validate: ValidateFunction): string => outputAjv.errorsText(validate.errors);

/**
 * Opens a spec in-process for tests. Every successful result is validated against the tool's
 * outputSchema here, so each tool test also proves the schema matches what the handler returns.
 */
export async function openTestServer<S>(spec: ServerSpec<S>, faults?: FaultConfig): Promise<TestServer<S>> {
  const connection = await connectInMemory(spec, faults);
  const outputValidator = outputValidatorsOf(spec);

  const call = async (name: string, args: Record<string, unknown> = {}): Promise<CallOutcome> => {
    try {
      const result = await connection.client.callTool({ name, arguments: args });
      const text = (result.content as { type: string; text?: string }[]).map((part) => part.text ?? "").join("\n");
      if (result.isError) return { kind: "tool_error", text };
      const data = result.structuredContent as Record<string, unknown>;
      const validate = outputValidator(name);
      if (validate && !validate(data)) {
        throw new Error(`${spec.name}.${name} output breaks its outputSchema: ${errorsText(validate)}`);
      }
      return { kind: "ok", data };
    } catch (error) {
      if (error instanceof McpError)
        return { kind: "rpc_error", code: error.code, message: error.message, data: error.data };
      throw error;
    }
  };

  return {
    ...connection,
    call,
    ok: async (name, args) => {
      const outcome = await call(name, args);
      if (outcome.kind !== "ok") throw new Error(`${spec.name}.${name} failed: ${JSON.stringify(outcome)}`);
      return outcome.data;
    },
    dump: async () => {
      const result = await connection.client.callTool({ name: CONTROL_TOOLS.state, arguments: {} });
      return (result.structuredContent as { state: unknown }).state;
    },
    check: async (expect, args) => {
      const result = await connection.client.callTool({ name: CONTROL_TOOLS.check, arguments: { expect, args } });
      return result.structuredContent as { pass: boolean; detail: string };
    },
  };
}

/** Shape rules every server spec must follow; returns the list of violations (empty when fine). */
export function specViolations<S>(spec: ServerSpec<S>): string[] {
  const problems: string[] = [];
  const ajv = createAjv();
  const stateA = JSON.stringify(spec.createState());
  const stateB = JSON.stringify(spec.createState());
  if (stateA !== stateB) problems.push("createState() is not deterministic");
  for (const tool of spec.tools) {
    const where = `${spec.name}.${tool.name}`;
    if (tool.name.startsWith("__")) problems.push(`${where}: names starting with __ are reserved for control tools`);
    if (!tool.description.trim()) problems.push(`${where}: empty description`);
    if (tool.inputSchema.type !== "object") problems.push(`${where}: inputSchema.type must be "object"`);
    if (tool.outputSchema.type !== "object") problems.push(`${where}: outputSchema.type must be "object"`);
    const required = tool.outputSchema.required;
    if (!Array.isArray(required) || required.length === 0) {
      problems.push(`${where}: outputSchema needs at least one required property (malformed-result faults rely on it)`);
    }
    if (typeof tool.annotations.readOnlyHint !== "boolean") problems.push(`${where}: readOnlyHint missing`);
    if (!tool.annotations.readOnlyHint && typeof tool.annotations.destructiveHint !== "boolean") {
      problems.push(`${where}: a write tool must say destructiveHint`);
    }
    for (const [label, schema] of [
      ["inputSchema", tool.inputSchema],
      ["outputSchema", tool.outputSchema],
    ] as const) {
      try {
        ajv.compile(schema);
      } catch (error) {
        problems.push(`${where}: ${label} does not compile: ${(error as Error).message}`);
      }
    }
  }
  return problems;
}
