/**
 * The write guard: a tool that changes something may succeed once per query. Small models in a loop
 * repeat a successful post or create; the second attempt is blocked and recorded instead of executed.
 */

import type { ToolDefinition } from "../mcp/types.ts";
import { splitName } from "./text.ts";
import type { BlockedWrite } from "./types.ts";

const WRITE_VERBS = new Set(
  "create update delete remove post send write merge add edit set put patch push fork move upload close reopen reply publish archive assign insert replace rename".split(
    " ",
  ),
);

/** Annotated destructive, or not read-only and named like a write (`slack_post_message`, `issue_write`). */
export function isWriteTool(tool: ToolDefinition): boolean {
  if (tool.annotations.destructiveHint === true) return true;
  if (tool.annotations.readOnlyHint === true) return false;
  return splitName(tool.name).some((word) => WRITE_VERBS.has(word));
}

export class WriteGuard {
  readonly blocked: BlockedWrite[] = [];
  private readonly writeTools: Set<string>;
  private readonly firstSuccess = new Map<string, number>();

  constructor(tools: readonly ToolDefinition[]) {
    this.writeTools = new Set(tools.filter(isWriteTool).map((tool) => tool.name));
  }

  /** The seq of the earlier successful call that blocks this one, if any. */
  blockingCall(tool: string): number | undefined {
    return this.writeTools.has(tool) ? this.firstSuccess.get(tool) : undefined;
  }

  recordSuccess(tool: string, seq: number): void {
    if (this.writeTools.has(tool) && !this.firstSuccess.has(tool)) this.firstSuccess.set(tool, seq);
  }

  recordBlocked(write: BlockedWrite): void {
    this.blocked.push(write);
  }
}
