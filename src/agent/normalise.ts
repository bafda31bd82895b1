/** Argument keys spelled the schema's way: `issueNumber` → `issue_number`, `pull_number` → `pullNumber`. */

import type { ToolDefinition } from "../tool-protocol/types.ts";
import { setOwn } from "./call-syntax.ts";
import { looseKey, toCamelCase, toSnakeCase } from "./text.ts";
import { toolProperties } from "./tool-schema.ts";

export interface NormalisedKeys {
  args: Record<string, unknown>;
  /** `from→to` for every renamed key. */
  renamed: string[];
}

export function normaliseKeys(tool: ToolDefinition, args: Record<string, unknown>): NormalisedKeys {
  const names = Object.keys(toolProperties(tool));
  const known = new Set(names);
  const out: Record<string, unknown> = {};
  const renamed: string[] = [];
  for (const [key, value] of Object.entries(args)) {
    const target = known.has(key) ? key : schemaSpelling(key, names, known);
    // A key already given in the schema's spelling wins over a variant of it.
    if (target !== key && (Object.hasOwn(args, target) || Object.hasOwn(out, target))) {
      setOwn(out, key, value);
      continue;
    }
    if (target !== key) renamed.push(`${key}→${target}`);
    setOwn(out, target, value);
  }
  return { args: out, renamed };
}

function schemaSpelling(key: string, names: readonly string[], known: ReadonlySet<string>): string {
  for (const candidate of [toSnakeCase(key), toCamelCase(key)]) if (known.has(candidate)) return candidate;
  const loose = looseKey(key);
  const matches = names.filter((name) => looseKey(name) === loose);
  return matches.length === 1 ? (matches[0] as string) : key;
}
