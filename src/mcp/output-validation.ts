import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { JsonSchema } from "./types.ts";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** Validates tool results against their outputSchema; one compiled validator per (server, tool). */
export class OutputValidator {
  private readonly ajv: Ajv;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor() {
    // strict off: output schemas come from third-party servers; no coercion when judging results.
    this.ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
  }

  /** Returns null when the value conforms, or a readable reason. */
  check(server: string, tool: string, schema: JsonSchema, value: unknown): string | null {
    const key = `${server}\u0000${tool}`;
    let validate = this.cache.get(key);
    if (!validate) {
      const { $id: _ignored, ...withoutId } = schema;
      validate = this.ajv.compile(withoutId);
      this.cache.set(key, validate);
    }
    return validate(value) ? null : this.ajv.errorsText(validate.errors, { dataVar: "structuredContent" });
  }
}
