/**
 * The write guard: a write that succeeded may not be made again in the same query. Small models in a
 * loop repeat a successful post or create; the repeat is blocked and recorded instead of executed.
 *
 * A repeat is the same tool with the same arguments (canonical JSON). The OnsetLab rule — one success
 * per write TOOL — would also block legitimate work: posting to two channels, writing three files, the
 * 17 parallel items of the dataset that use one write tool twice; keyed by call, those pass and the
 * loop's duplicate still does not.
 *
 * `write_guard: per_tool` is OnsetLab's rule, kept for comparison: only server tools named with one of
 * its write stems are guarded (Slack posting is not), only ReAct successes count, one success per tool,
 * and a blocked call gets a success-looking text with the first result instead of an error.
 */

import { canonicalJson } from "../json.ts";
import type { ToolDefinition } from "../tool-protocol/types.ts";
import { splitName, truncate } from "./text.ts";
import { isBuiltin } from "./tool-schema.ts";
import type { BlockedWrite, WriteGuardMode } from "./types.ts";

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

/** OnsetLab's write stems, matched anywhere in a server tool's name. */
const ONSETLAB_WRITE = /write|create|update|push|merge|delete|fork|assign|add_comment/i;

function isOnsetlabWriteTool(tool: ToolDefinition): boolean {
  return !isBuiltin(tool) && ONSETLAB_WRITE.test(tool.name);
}

type GuardRule = Exclude<WriteGuardMode, "off">;

/** Characters of the first result a blocked `per_tool` call is given back. */
const CACHED_RESULT_CHARS = 500;

export class WriteGuard {
  readonly blocked: BlockedWrite[] = [];
  private readonly writeTools: ReadonlySet<string>;
  private readonly firstSuccess = new Map<string, { seq: number; text: string }>();

  constructor(
    tools: readonly ToolDefinition[],
    readonly rule: GuardRule = "per_call",
  ) {
    const test = rule === "per_tool" ? isOnsetlabWriteTool : isWriteTool;
    this.writeTools = new Set(tools.filter(test).map((tool) => tool.name));
  }

  /** The earlier success that blocks this call (same call, or with `per_tool` the same tool), if any. */
  blockingCall(tool: string, args: Record<string, unknown>): { seq: number; text: string } | undefined {
    return this.writeTools.has(tool) ? this.firstSuccess.get(this.key(tool, args)) : undefined;
  }

  /** Successes count from every stage with `per_call`, only from guarded (ReAct) calls with `per_tool`. */
  recordSuccess(tool: string, args: Record<string, unknown>, seq: number, text: string, guarded: boolean): void {
    if (this.rule === "per_tool" && !guarded) return;
    const key = this.key(tool, args);
    if (this.writeTools.has(tool) && !this.firstSuccess.has(key)) this.firstSuccess.set(key, { seq, text });
  }

  recordBlocked(write: BlockedWrite): void {
    this.blocked.push(write);
  }

  /** What a blocked call returns: an error (`per_call`), or OnsetLab's "already done" with the first result. */
  blockedResult(tool: string, first: { seq: number; text: string }): { ok: boolean; text: string } {
    if (this.rule === "per_tool") {
      return {
        ok: true,
        text: `${tool} already succeeded in this query, so it was not run again. Its result: ${truncate(first.text, CACHED_RESULT_CHARS)}`,
      };
    }
    return {
      ok: false,
      text: `blocked by the write guard: the same ${tool} call already succeeded in this query (call ${first.seq}); do not repeat it`,
    };
  }

  private key(tool: string, args: Record<string, unknown>): string {
    return this.rule === "per_tool" ? tool : `${tool}\u0000${canonicalJson(args)}`;
  }
}
