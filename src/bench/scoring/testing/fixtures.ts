/**
 * Hand-built inputs for the scorer's tests: tools with the real GitHub / Slack servers' names,
 * parameters and annotations, dataset items, and a trace builder that fills every field a test
 * does not care about.
 */

import type { DatasetItem } from "../../dataset/types.ts";
import type { ToolCallView, ToolView, TraceView } from "../types.ts";

const str = { type: "string" };
const num = { type: "number" };
const read = { readOnlyHint: true };
const write = { readOnlyHint: false, destructiveHint: false };

function tool(
  name: string,
  properties: Record<string, unknown>,
  required: string[],
  annotations: ToolView["annotations"],
): ToolView {
  return { name, inputSchema: { type: "object", properties, required }, annotations };
}

export const TOOLS: readonly ToolView[] = [
  tool("get_me", {}, [], read),
  tool(
    "list_issues",
    {
      owner: str,
      repo: str,
      state: { type: "string", enum: ["OPEN", "CLOSED"] },
      labels: { type: "array", items: str },
    },
    ["owner", "repo"],
    read,
  ),
  tool(
    "issue_read",
    { method: { type: "string", enum: ["get", "get_comments"] }, owner: str, repo: str, issue_number: num },
    ["method", "owner", "repo", "issue_number"],
    read,
  ),
  tool(
    "issue_write",
    {
      method: { type: "string", enum: ["create", "update"] },
      owner: str,
      repo: str,
      title: str,
      body: str,
      issue_number: num,
      state: { type: "string", enum: ["open", "closed"] },
    },
    ["method", "owner", "repo"],
    write,
  ),
  tool("slack_list_channels", { limit: num }, [], read),
  tool("slack_post_message", { channel_id: str, text: str }, ["channel_id", "text"], write),
  tool("calculator", { expression: str }, ["expression"], read),
];

export function item(overrides: Partial<DatasetItem> & Pick<DatasetItem, "id">): DatasetItem {
  return {
    query: "a query",
    category: "single",
    servers: ["github"],
    route: "rewoo",
    calls: [],
    order: "sequence",
    difficulty: "easy",
    tags: [],
    ...overrides,
  };
}

/** An empty, successful run; tests override what they are about. */
export function trace(overrides: Partial<TraceView> = {}): TraceView {
  return {
    modelCalls: [],
    steps: [],
    toolCalls: [],
    rescues: [],
    fallback: { used: false, iterations: [] },
    iterations: [],
    writeGuard: { blocked: [] },
    answer: "",
    timings: { totalMs: 10, modelMs: 6, toolsMs: 2 },
    ...overrides,
  };
}

/** A tool call that reached the server; `seq` also orders the start times. */
export function call(
  seq: number,
  tool: string,
  args: Record<string, unknown>,
  extra: Partial<ToolCallView> = {},
): ToolCallView {
  return { seq, stage: "executor", tool, args, ok: true, startMs: seq, durationMs: 1, ...extra };
}

/** A failed call with the server's error. */
export function failedCall(
  seq: number,
  tool: string,
  args: Record<string, unknown>,
  error: NonNullable<ToolCallView["error"]>,
  extra: Partial<ToolCallView> = {},
): ToolCallView {
  return call(seq, tool, args, { ok: false, error, ...extra });
}

export const CREATE_ISSUE = {
  tool: "issue_write",
  args: { method: "create", owner: "acme", repo: "webapp", title: "Login fails" },
};
