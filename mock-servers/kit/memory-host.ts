/**
 * A ToolHost over in-process mock servers (connectInMemory), for the agent's end-to-end tests: one
 * attempt per call, errors classified by the MCP layer's retry table. The real pool (src/mcp/pool.ts)
 * adds retries, output validation and restarts; tests that need those use it instead.
 */

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { classifyError } from "../../src/tool-protocol/retry.ts";
import type { CallOptions, ToolCallResult, ToolDefinition, ToolHost } from "../../src/tool-protocol/types.ts";
import { connectInMemory, type InMemoryConnection } from "./memory.ts";
import type { ServerSpec } from "./types.ts";

export class MemoryToolHost implements ToolHost {
  /** Every call the host received, with its arguments, in order. */
  readonly received: { name: string; args: Record<string, unknown> }[] = [];

  private constructor(
    private readonly connections: Map<string, InMemoryConnection<unknown>>,
    private readonly tools: ToolDefinition[],
  ) {}

  // biome-ignore lint/suspicious/noExplicitAny: specs of different state types live side by side
  static async open(specs: readonly ServerSpec<any>[]): Promise<MemoryToolHost> {
    const connections = new Map<string, InMemoryConnection<unknown>>();
    const tools: ToolDefinition[] = [];
    for (const spec of specs) {
      const connection = await connectInMemory(spec);
      connections.set(spec.name, connection);
      const listed = await connection.client.listTools();
      for (const tool of listed.tools) {
        tools.push({
          server: spec.name,
          name: tool.name,
          description: tool.description ?? "",
          inputSchema: tool.inputSchema as ToolDefinition["inputSchema"],
          annotations: tool.annotations ?? {},
        });
      }
    }
    return new MemoryToolHost(connections, tools);
  }

  listTools(): ToolDefinition[] {
    return [...this.tools];
  }

  async callTool(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<ToolCallResult> {
    this.received.push({ name, args });
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    const tool = this.tools.find((candidate) => candidate.name === name);
    if (!tool) {
      const message = `Unknown tool "${name}"`;
      return {
        ok: false,
        text: message,
        error: { kind: "unknown_tool", message },
        attempts: [],
        durationMs: elapsed(),
      };
    }
    try {
      const result = await this.client(tool.server).callTool({ name, arguments: args }, undefined, {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
      });
      const text = (result.content as { type: string; text?: string }[]).map((part) => part.text ?? "").join("\n");
      const attempt = {
        attempt: 1,
        durationMs: elapsed(),
        outcome: result.isError ? ("tool_error" as const) : ("ok" as const),
      };
      if (result.isError) {
        return {
          ok: false,
          text,
          error: { kind: "tool_error", message: text },
          attempts: [attempt],
          durationMs: elapsed(),
        };
      }
      return { ok: true, data: result.structuredContent, text, attempts: [attempt], durationMs: elapsed() };
    } catch (error) {
      const classified = classifyError(error, options.signal);
      const data = error instanceof Error && "data" in error ? (error.data as { missing?: string[] }) : undefined;
      return {
        ok: false,
        text: classified.message,
        error: {
          kind: classified.kind,
          message: classified.message,
          ...(classified.code === undefined ? {} : { code: classified.code }),
          ...(Array.isArray(data?.missing) ? { missing: data.missing } : {}),
        },
        attempts: [{ attempt: 1, durationMs: elapsed(), outcome: classified.kind, message: classified.message }],
        durationMs: elapsed(),
      };
    }
  }

  /** Restores every server's fixture state. */
  reset(): void {
    for (const connection of this.connections.values()) connection.mock.reset();
  }

  /** A server's live state, for end-state assertions. */
  state<S>(server: string): S {
    return this.connection(server).mock.state as S;
  }

  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((connection) => connection.close()));
  }

  private client(server: string): Client {
    return this.connection(server).client;
  }

  private connection(server: string): InMemoryConnection<unknown> {
    const connection = this.connections.get(server);
    if (!connection) throw new Error(`no server named ${server}`);
    return connection;
  }
}
