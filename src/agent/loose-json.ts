/** JSON as small models write it: strict first, then jsonrepair, then call-style `k="v"` pairs. Never throws. */

import { jsonrepair } from "jsonrepair";
import { MAX_NESTING_DEPTH, textDepth, tooDeep } from "../nesting.ts";
import { parseCallArguments } from "./call-syntax.ts";

export type LooseJson = { ok: true; value: unknown; repaired: boolean } | { ok: false; error: string };

const TOO_DEEP = `nested deeper than ${MAX_NESTING_DEPTH} levels`;

/**
 * A value nested deeper than MAX_NESTING_DEPTH is a failure: JSON.parse reads any depth, but jsonrepair
 * and everything that later copies or prints the value recurse.
 */
export function parseLooseJson(text: string): LooseJson {
  const trimmed = stripFences(text).trim();
  if (trimmed === "") return { ok: false, error: "empty" };
  try {
    return accept(JSON.parse(trimmed), false);
  } catch {
    // fall through to repair
  }
  if (textDepth(trimmed) > MAX_NESTING_DEPTH) return { ok: false, error: TOO_DEEP };
  try {
    return accept(JSON.parse(jsonrepair(trimmed)), true);
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

function accept(value: unknown, repaired: boolean): LooseJson {
  return tooDeep(value) ? { ok: false, error: TOO_DEEP } : { ok: true, value, repaired };
}

/** Action inputs: a JSON object, `k="v", n=2` pairs, or one bare value for the tool's main parameter. */
export function parseActionInput(text: string): { value: unknown; repaired: boolean } {
  const trimmed = stripFences(text).trim();
  if (/^[A-Za-z_][\w-]*\s*=/.test(trimmed)) {
    const call = parseCallArguments(`(${trimmed})`, 0);
    return { value: call.named, repaired: true };
  }
  const parsed = parseLooseJson(trimmed);
  if (parsed.ok) return { value: parsed.value, repaired: parsed.repaired };
  return { value: trimmed.replace(/^["']|["']$/g, ""), repaired: true };
}

export function stripFences(text: string): string {
  return text.replace(/```[a-zA-Z]*\n?/g, "").replace(/```/g, "");
}
