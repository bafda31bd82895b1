/**
 * The write guard: a write that succeeded may not be made again in the same query. Small models in a
 * loop repeat a successful post or create; the repeat is blocked and recorded instead of executed.
 *
 * A repeat is the same tool with the same arguments (canonical JSON). The OnsetLab rule — one success
 * per write TOOL — would also block legitimate work: posting to two channels, writing three files, the
 * 17 parallel items of the dataset that use one write tool twice; keyed by call, those pass and the
 * loop's duplicate still does not.
 */

import type { ToolDefinition } from "../mcp/types.ts";
import { cached } from "../memo.ts";
import { canonicalJson } from "../models/json.ts";
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

/** A host lists the same array while its tools stay the same: its write tools are found once, not per query. */
const writeToolNames = new WeakMap<readonly ToolDefinition[], ReadonlySet<string>>();

export class WriteGuard {
  readonly blocked: BlockedWrite[] = [];
  private readonly writeTools: ReadonlySet<string>;
  private readonly firstSuccess = new Map<string, number>();

  constructor(tools: readonly ToolDefinition[]) {
    this.writeTools = cached(writeToolNames, tools, () => new Set(tools.filter(isWriteTool).map((tool) => tool.name)));
  }

  /** The seq of the earlier successful identical call that blocks this one, if any. */
  blockingCall(tool: string, args: Record<string, unknown>): number | undefined {
    return this.writeTools.has(tool) ? this.firstSuccess.get(callKey(tool, args)) : undefined;
  }

  recordSuccess(tool: string, args: Record<string, unknown>, seq: number): void {
    const key = callKey(tool, args);
    if (this.writeTools.has(tool) && !this.firstSuccess.has(key)) this.firstSuccess.set(key, seq);
  }

  recordBlocked(write: BlockedWrite): void {
    this.blocked.push(write);
  }
}

function callKey(tool: string, args: Record<string, unknown>): string {
  return `${tool}\u0000${canonicalJson(args)}`;
}
