/** JSON as small models write it: strict first, then jsonrepair, then call-style `k="v"` pairs. Never throws. */

import { jsonrepair } from "jsonrepair";
import { parseCallArguments } from "./call-syntax.ts";

export type LooseJson = { ok: true; value: unknown; repaired: boolean } | { ok: false; error: string };

export function parseLooseJson(text: string): LooseJson {
  const trimmed = stripFences(text).trim();
  if (trimmed === "") return { ok: false, error: "empty" };
  try {
    return { ok: true, value: JSON.parse(trimmed), repaired: false };
  } catch {
    // fall through to repair
  }
  try {
    return { ok: true, value: JSON.parse(jsonrepair(trimmed)), repaired: true };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
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
