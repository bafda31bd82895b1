/**
 * Dry run: every write tool (as the write guard classifies tools: destructive, or not read-only and named
 * like a write) answers with a preview of the call instead of running it; read tools run as usual. The
 * agent is unchanged: it sees a successful result, and the trace marks the call `dryRun: true`.
 */

import { isWriteTool } from "../../agent/write-guard.ts";
import type { CallOptions, ToolCallResult, ToolDefinition, ToolHost } from "../../tool-protocol/types.ts";
import type { Exposure } from "../dataset/exposure.ts";
import type { DatasetItem } from "../dataset/types.ts";
import type { ItemSession, ToolEnvironment } from "./environment.ts";

/** What a previewed call returns as structured data. */
export interface DryRunPreview {
  dryRun: true;
  tool: string;
  server: string;
  arguments: Record<string, unknown>;
}

export class DryRunToolHost implements ToolHost {
  constructor(private readonly inner: ToolHost) {}

  /** The inner host's list itself (not a copy): the agent's caches are keyed by it. */
  listTools(): readonly ToolDefinition[] {
    return this.inner.listTools();
  }

  async callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<ToolCallResult> {
    const tool = this.inner.listTools().find((candidate) => candidate.name === name);
    // an unknown tool goes through: the inner host answers it with its own error and nothing changes
    if (!tool || !isWriteTool(tool)) return this.inner.callTool(name, args, options);
    const preview: DryRunPreview = { dryRun: true, tool: name, server: tool.server, arguments: args };
    return {
      ok: true,
      data: preview,
      text: `dry run: ${name} (${tool.server}) was not run; it would have been called with ${JSON.stringify(args)}`,
      dryRun: true,
      attempts: [],
      durationMs: 0,
    };
  }
}

/** A tool environment whose sessions preview writes (the bench's `--dry-run`). */
export class DryRunEnvironment implements ToolEnvironment {
  constructor(private readonly inner: ToolEnvironment) {}

  definitions(item?: DatasetItem): readonly ToolDefinition[] {
    return this.inner.definitions(item);
  }

  async open(item: DatasetItem, exposure: Exposure): Promise<ItemSession> {
    const session = await this.inner.open(item, exposure);
    return { ...session, tools: new DryRunToolHost(session.tools) };
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/**
 * The item as a dry run scores it: its end-state checks left out (nothing was written, so they measure
 * the dry run, not the model): the score's `state` is then null, "not measured".
 */
export function dryRunItem(item: DatasetItem): DatasetItem {
  if (item.state === undefined) return item;
  const { state: _unmeasured, ...rest } = item;
  return rest;
}
