import { tooDeep } from "../nesting.ts";
import type { JsonSchema } from "../tool-protocol/types.ts";

export interface CoercionResult {
  args: Record<string, unknown>;
  /** Paths of the values that were converted, e.g. `issue_number: string→number`. */
  coerced: string[];
  /** Values that did not fit the schema and could not be converted; they are passed on unchanged. */
  problems: string[];
}

/**
 * Converts argument values to the types a tool's input schema asks for (string→number/boolean/array/object,
 * number/boolean→string, a scalar into a one-item array). A value that cannot be converted is never
 * changed: it is passed on as it was and reported in `problems`, so the server's own validation speaks.
 */
export function coerceArguments(schema: JsonSchema, args: Record<string, unknown>): CoercionResult {
  const coerced: string[] = [];
  const problems: string[] = [];
  const out = coerceObject(schema, args, "", coerced, problems);
  return { args: out, coerced, problems };
}

/**
 * OnsetLab's narrower coercion (`validation: strict`): top-level string values only, to a number,
 * integer or boolean (`true/1/yes`, `false/0/no`) or to a JSON array/object. No enum-case fix, no
 * scalar wrapped into an array, nothing nested.
 */
export function coerceBasic(schema: JsonSchema, args: Record<string, unknown>): CoercionResult {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const coerced: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    const types = properties[key] ? schemaTypes(properties[key]) : [];
    out[key] = value;
    if (typeof value !== "string" || types.length === 0 || types.includes("string")) continue;
    for (const target of types) {
      const converted =
        target === "boolean"
          ? basicBoolean(value)
          : target === "array" || target === "object"
            ? jsonOf(value, target)
            : convert(value, target);
      if (!converted.ok) continue;
      coerced.push(`${key}: string→${target}`);
      out[key] = converted.value;
      break;
    }
  }
  return { args: out, coerced, problems: [] };
}

function basicBoolean(value: string): Conversion {
  const lowered = value.trim().toLowerCase();
  if (["true", "1", "yes"].includes(lowered)) return { ok: true, value: true };
  return ["false", "0", "no"].includes(lowered) ? { ok: true, value: false } : NO;
}

function jsonOf(value: string, target: "array" | "object"): Conversion {
  const parsed = parseJson(value, target === "array" ? "[" : "{");
  return (target === "array" ? Array.isArray(parsed) : isPlainObject(parsed)) ? { ok: true, value: parsed } : NO;
}

function coerceObject(
  schema: JsonSchema,
  value: Record<string, unknown>,
  path: string,
  coerced: string[],
  problems: string[],
): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const propertySchema = properties[key];
    out[key] = propertySchema ? coerceValue(propertySchema, item, join(path, key), coerced, problems) : item;
  }
  return out;
}

function coerceValue(schema: JsonSchema, value: unknown, path: string, coerced: string[], problems: string[]): unknown {
  const types = schemaTypes(schema);
  if (types.length === 0 || value === undefined) return value;
  const actual = jsonType(value);
  if (types.includes(actual) || (actual === "integer" && types.includes("number"))) {
    return matchEnumCase(schema, descend(schema, value, path, coerced, problems), path, coerced);
  }
  for (const target of types) {
    const converted = convert(value, target);
    if (converted.ok) {
      coerced.push(`${path}: ${actual}→${target}`);
      return descend(schema, converted.value, path, coerced, problems);
    }
  }
  problems.push(`${path}: expected ${types.join(" or ")}, got ${actual} ${preview(value)}`);
  return value;
}

function descend(schema: JsonSchema, value: unknown, path: string, coerced: string[], problems: string[]): unknown {
  if (Array.isArray(value) && schema.items && typeof schema.items === "object") {
    return value.map((item, index) =>
      coerceValue(schema.items as JsonSchema, item, `${path}[${index}]`, coerced, problems),
    );
  }
  if (isPlainObject(value) && schema.properties) {
    return coerceObject(schema, value, path, coerced, problems);
  }
  return value;
}

/** `open` for an enum of `OPEN|CLOSED`: the one unambiguous case-insensitive match replaces the value. */
function matchEnumCase(schema: JsonSchema, value: unknown, path: string, coerced: string[]): unknown {
  if (typeof value !== "string" || !Array.isArray(schema.enum) || schema.enum.includes(value)) return value;
  const matches = schema.enum.filter(
    (option) => typeof option === "string" && option.toLowerCase() === value.toLowerCase(),
  );
  if (matches.length !== 1) return value;
  coerced.push(`${path}: enum case ${JSON.stringify(value)}→${JSON.stringify(matches[0])}`);
  return matches[0];
}

type Conversion = { ok: true; value: unknown } | { ok: false };
const NO: Conversion = { ok: false };
const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function convert(value: unknown, target: string): Conversion {
  switch (target) {
    case "number":
    case "integer": {
      if (typeof value !== "string" || !NUMERIC.test(value.trim())) return NO;
      const number = Number(value.trim());
      return target === "integer" && !Number.isInteger(number) ? NO : { ok: true, value: number };
    }
    case "boolean": {
      if (typeof value !== "string") return NO;
      const lowered = value.trim().toLowerCase();
      return lowered === "true" || lowered === "false" ? { ok: true, value: lowered === "true" } : NO;
    }
    case "string":
      return typeof value === "number" || typeof value === "boolean" ? { ok: true, value: String(value) } : NO;
    case "array": {
      const parsed = parseJson(value, "[");
      if (Array.isArray(parsed)) return { ok: true, value: parsed };
      return value !== null && !Array.isArray(value) && !isPlainObject(value) ? { ok: true, value: [value] } : NO;
    }
    case "object": {
      const parsed = parseJson(value, "{");
      return isPlainObject(parsed) ? { ok: true, value: parsed } : NO;
    }
    case "null":
      return typeof value === "string" && value.trim().toLowerCase() === "null" ? { ok: true, value: null } : NO;
    default:
      return NO;
  }
}

function parseJson(value: unknown, opener: string): unknown {
  if (typeof value !== "string" || !value.trim().startsWith(opener)) return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    // a model-written string nested past the limit would make the call's record unprintable
    return tooDeep(parsed) ? undefined : parsed;
  } catch {
    return undefined; // not JSON: the caller reports it as a problem
  }
}

function schemaTypes(schema: JsonSchema): string[] {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.map(String);
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(variants)) return variants.flatMap(schemaTypes);
  if (Array.isArray(schema.enum)) return [...new Set(schema.enum.map(jsonType))];
  return [];
}

export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
