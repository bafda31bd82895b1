/** JSON as small models write it: strict first, then jsonrepair, then call-style `k="v"` pairs. Never throws. */

import { jsonrepair } from "jsonrepair";
import { MAX_NESTING_DEPTH, textDepth, tooDeep } from "../nesting.ts";
import { parseCallArguments } from "./call-syntax.ts";

export type LooseJson = { ok: true; value: unknown; repaired: boolean } | { ok: false; error: string };

const TOO_DEEP = `nested deeper than ${MAX_NESTING_DEPTH} levels`;
/**
 * Longest text handed to jsonrepair: it is superlinear on some broken texts (runs of concatenated strings
 * or quotes: 25 ms at 32 KB, a tenth of that at 8 KB). Protocol objects are far shorter (≤ 512 tokens).
 */
export const MAX_REPAIR_CHARS = 8_192;

/**
 * A value nested deeper than MAX_NESTING_DEPTH is a failure: JSON.parse reads any depth, but jsonrepair
 * and everything that later copies or prints the value recurse. Strict JSON of any length is read.
 */
export function parseLooseJson(text: string): LooseJson {
  const trimmed = stripFences(text).trim();
  if (trimmed === "") return { ok: false, error: "empty" };
  try {
    return accept(JSON.parse(trimmed), false);
  } catch {
    // fall through to repair
  }
  if (trimmed.length > MAX_REPAIR_CHARS) {
    return {
      ok: false,
      error: `not JSON, and too long to repair (${trimmed.length} chars, at most ${MAX_REPAIR_CHARS})`,
    };
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
