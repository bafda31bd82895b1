/**
 * State checks of either kind (types.ts): which server one runs on, its name in reports, and how a
 * tool-call check's result is matched against its expectation — shared by the runner and the gold replay.
 */
import { isDeepStrictEqual } from "node:util";
import { JSONPath } from "jsonpath-plus";
import { isReadOnlyTool, type Registry } from "../../mcp/registry.ts";
import type { ToolDefinition, ToolHost } from "../../tool-protocol/types.ts";
import { datasetRegex } from "./regex.ts";
import type { StateCheckSpec, ToolCallStateCheck, ToolResultExpectation } from "./types.ts";

/** A state check as the server answered it (`negate` is the scorer's business). */
export interface StateOutcome {
  spec: StateCheckSpec;
  pass: boolean;
  detail: string;
  /** A tool-call check whose call could not be made: it fails, negated or not. */
  notRun?: boolean;
}

export function isToolCallCheck(spec: StateCheckSpec): spec is ToolCallStateCheck {
  return "call" in spec;
}

/** The server a state check runs on. */
export function checkServer(spec: StateCheckSpec): string {
  return isToolCallCheck(spec) ? spec.call.server : spec.server;
}

/** A short name for a state check in reports: the named check, or the tool and what it expects. */
export function checkLabel(spec: StateCheckSpec): string {
  if (!isToolCallCheck(spec)) return spec.expect;
  const parts = Object.entries(spec.expect).map(([key, value]) => `${key} ${JSON.stringify(value)}`);
  return `${spec.call.tool} → ${parts.join(", ")}`;
}

/** Whether a tool changes nothing, as its server's registry entry sees it (annotation or `read_only_tools`). */
export function readOnlyIn(registry: Registry): (tool: ToolDefinition) => boolean {
  const entries = new Map(registry.servers.map((entry) => [entry.name, entry]));
  return (tool) => {
    const entry = entries.get(tool.server);
    return entry ? isReadOnlyTool(entry, tool) : tool.annotations.readOnlyHint === true;
  };
}

/** A tool result as the check sees it: its text, and its JSON (structuredContent, or the text parsed). */
export interface CheckedResult {
  text: string;
  data?: unknown;
}

/** A check's own result, before `negate`; `notRun`: the call could not be made, which fails the check either way. */
export interface CheckVerdict {
  pass: boolean;
  detail: string;
  notRun?: boolean;
}

/** Whether the result meets every given part of the expectation (before `negate`), and why not. */
export function matchToolResult(expect: ToolResultExpectation, result: CheckedResult): CheckVerdict {
  const failures: string[] = [];
  const wanted = expect.contains === undefined ? [] : [expect.contains].flat();
  for (const part of wanted) {
    if (!result.text.includes(part)) failures.push(`text lacks ${JSON.stringify(part)}`);
  }
  if ("equals" in expect && !isDeepStrictEqual(result.data, expect.equals)) {
    failures.push(`result is ${preview(result.data)}, not ${preview(expect.equals)}`);
  }
  if (expect.jsonpath !== undefined) {
    const found = JSONPath({ path: expect.jsonpath, json: jsonOf(result.data), wrap: true }) as unknown[];
    if (found.length === 0) failures.push(`${expect.jsonpath} matches nothing`);
    else if ("value" in expect && !found.some((value) => isDeepStrictEqual(value, expect.value))) {
      failures.push(
        `${expect.jsonpath} is ${preview(found.length === 1 ? found[0] : found)}, not ${preview(expect.value)}`,
      );
    }
  }
  if (expect.regex !== undefined && !datasetRegex(expect.regex).test(result.text)) {
    failures.push(`text does not match /${expect.regex}/`);
  }
  return failures.length === 0
    ? { pass: true, detail: `result matches (${preview(result.text)})` }
    : { pass: false, detail: failures.join("; ") };
}

/** JSONPath walks objects and arrays only: a plain-text result is matched as a string. */
function jsonOf(data: unknown): null | boolean | number | string | object {
  return data === undefined ? null : (data as null | boolean | number | string | object);
}

function preview(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "undefined");
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

/**
 * Calls the check's tool on its server and matches the result. A tool error is a result like any other
 * (reading a file the model deleted); a call that could not be made at all leaves the check not run,
 * which fails it whatever `negate` says.
 */
export async function runToolCallCheck(host: ToolHost, spec: ToolCallStateCheck): Promise<CheckVerdict> {
  const { server, tool, args } = spec.call;
  if (!host.listTools().some((candidate) => candidate.name === tool && candidate.server === server)) {
    return { pass: false, notRun: true, detail: `server "${server}" has no tool "${tool}"` };
  }
  const result = await host.callTool(tool, args);
  if (!result.ok && result.error?.kind !== "tool_error") {
    return { pass: false, notRun: true, detail: `${tool} could not run: ${result.text}` };
  }
  return matchToolResult(spec.expect, result);
}
