/**
 * Tool-call arguments as a server sent them: an object (Ollama) or a JSON string (OpenAI-compatible).
 * A string that is not a JSON object is kept and its problem reported — never silently replaced.
 */

import { MAX_NESTING_DEPTH, tooDeep } from "../nesting.ts";
import type { NativeToolCall } from "./types.ts";

export type ParsedArguments = Pick<NativeToolCall, "arguments" | "rawArguments" | "argumentsError">;

/** A deep value cannot be printed or copied (both recurse): refused, its text not kept. */
const TOO_DEEP: ParsedArguments = {
  arguments: {},
  argumentsError: `arguments nested deeper than ${MAX_NESTING_DEPTH} levels`,
};

export function parseToolArguments(raw: unknown): ParsedArguments {
  if (raw === undefined || raw === null || raw === "") return { arguments: {} };
  if (typeof raw === "object" && tooDeep(raw)) return TOO_DEEP;
  if (isPlainObject(raw)) return { arguments: raw };
  if (typeof raw !== "string") {
    return { arguments: {}, rawArguments: JSON.stringify(raw), argumentsError: `arguments are a ${typeof raw}` };
  }
  try {
    const parsed: unknown = JSON.parse(raw);
    if (tooDeep(parsed)) return { ...TOO_DEEP, rawArguments: raw };
    if (isPlainObject(parsed)) return { arguments: parsed };
    return { arguments: {}, rawArguments: raw, argumentsError: "arguments are JSON but not an object" };
  } catch (error) {
    return { arguments: {}, rawArguments: raw, argumentsError: `arguments are not valid JSON: ${describe(error)}` };
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
