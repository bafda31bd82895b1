/** Writing calls out: the planner's call syntax, JSON arguments, and the flaws a malformed call has. */

import type { WrittenCall } from "./mistakes.ts";

/** How a malformed call is broken: cut before `)`, commas left out, a string never closed. */
export type CallFlaw = "unclosed" | "no_commas" | "open_string";

export const CALL_FLAWS: readonly CallFlaw[] = ["unclosed", "no_commas", "open_string"];

/** `tool(a="x", n=2)`, or by position `tool("x", 2)`; keys that are not identifiers are quoted. */
export function callSyntax(call: WrittenCall, flaw?: CallFlaw): string {
  const strings = call.args.filter(([, value]) => typeof value === "string");
  const openAt = flaw === "open_string" && strings.length > 0 ? call.args.indexOf(strings[0] as [string, unknown]) : -1;
  const args = call.args.map(([name, value], index) => {
    const text = index === openAt ? json(value).slice(0, -1) : json(value);
    return call.positional ? text : `${/^[A-Za-z_][\w.-]*$/.test(name) ? name : json(name)}=${text}`;
  });
  const separator = flaw === "no_commas" && args.length > 1 ? " " : ", ";
  const closed = flaw === undefined || (flaw === "no_commas" && args.length > 1) || openAt >= 0;
  return `${call.tool}(${args.join(separator)}${closed ? ")" : ""}`;
}

/** The arguments as a JSON value: an object, or an array when written by position. */
export function argumentsJson(call: WrittenCall): unknown[] | Record<string, unknown> {
  return call.positional ? call.args.map(([, value]) => value) : Object.fromEntries(call.args);
}

export function json(value: unknown): string {
  return JSON.stringify(value) ?? "null";
}
