/**
 * A view of a ToolHost that shows and calls only some of its tools: an item's own function set, a
 * session's servers, an agent definition's allow-list. A tool left out does not exist for the caller.
 */
import type { CallOptions, ToolCallResult, ToolDefinition, ToolHost } from "../tool-protocol/types.ts";

/**
 * Part of a host's tools: those an item allows (BFCL-style items carry their own function set), or
 * those of a session's servers. A tool left out does not exist for the query. The list is made once
 * per list of the host, so the agent's caches keyed by it (prompt lines, the write guard) hold.
 */
export class RestrictedToolHost implements ToolHost {
  private source: readonly ToolDefinition[] | undefined;
  private listed: readonly ToolDefinition[] = [];
  private names: ReadonlySet<string> = new Set();

  constructor(
    private readonly inner: ToolHost,
    private readonly keep: (tool: ToolDefinition) => boolean,
  ) {}

  /** Only the named tools. */
  static ofTools(inner: ToolHost, names: readonly string[]): RestrictedToolHost {
    const allowed = new Set(names);
    return new RestrictedToolHost(inner, (tool) => allowed.has(tool.name));
  }

  /** Only the tools of the named servers. */
  static ofServers(inner: ToolHost, servers: readonly string[]): RestrictedToolHost {
    const allowed = new Set(servers);
    return new RestrictedToolHost(inner, (tool) => allowed.has(tool.server));
  }

  listTools(): readonly ToolDefinition[] {
    const all = this.inner.listTools();
    if (all !== this.source) {
      this.source = all;
      this.listed = Object.freeze(all.filter(this.keep));
      this.names = new Set(this.listed.map((tool) => tool.name));
    }
    return this.listed;
  }

  async callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<ToolCallResult> {
    this.listTools();
    if (this.names.has(name)) return this.inner.callTool(name, args, options);
    const message = `Unknown tool "${name}"`;
    return { ok: false, text: message, error: { kind: "unknown_tool", message }, attempts: [], durationMs: 0 };
  }
}
