/**
 * What a grammar forces when the simulator has nothing of its own to say in a schema's shape: the
 * smallest value valid against a JSON Schema (the subset servers turn into grammars: type, const, enum,
 * anyOf/oneOf, properties/required, items/minItems, minLength, minimum).
 */

import type { JsonSchema } from "../../tool-protocol/types.ts";

/** Past this depth a schema (a recursive one) gets `null`. */
const MAX_DEPTH = 16;

/**
 * A constrained answer: the simulator's own text when it answers a known item in valid JSON (constrained
 * decoding removes syntax mistakes only), else the schema's smallest instance.
 */
export function conformingText(text: string, schema: JsonSchema, known: boolean): string {
  if (known) {
    try {
      JSON.parse(text);
      return text;
    } catch {
      // not JSON: what the grammar would have forced instead
    }
  }
  return JSON.stringify(schemaInstance(schema));
}

export function schemaInstance(schema: JsonSchema, depth = 0): unknown {
  if (depth > MAX_DEPTH) return null;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const branches = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (Array.isArray(branches) && branches.length > 0) return schemaInstance(branches[0] as JsonSchema, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "object":
      return objectInstance(schema, depth);
    case "array": {
      const count = typeof schema.minItems === "number" ? schema.minItems : 0;
      const items = (schema.items ?? {}) as JsonSchema;
      return Array.from({ length: count }, () => schemaInstance(items, depth + 1));
    }
    case "string":
      return "x".repeat(typeof schema.minLength === "number" ? schema.minLength : 0);
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 0;
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      return schema.properties ? objectInstance(schema, depth) : null;
  }
}

function objectInstance(schema: JsonSchema, depth: number): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return Object.fromEntries(required.map((name) => [name, schemaInstance(properties[name] ?? {}, depth + 1)]));
}
