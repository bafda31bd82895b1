import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { BoundedCache } from "../memo.ts";
import type { JsonSchema } from "../tool-protocol/types.ts";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * Compiled validators by schema text, shared by every pool of this thread: compiling the 121 mock output
 * schemas takes ~0.7 s, and a run opens one pool per query in flight (each stdio pool sees the same
 * schemas as new objects, off the wire).
 */
const compiled = new BoundedCache<string, ValidateFunction>(4096);
let sharedAjv: Ajv | undefined;

function ajv(): Ajv {
  if (!sharedAjv) {
    // strict off: output schemas come from third-party servers; no coercion when judging results.
    sharedAjv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    addFormats(sharedAjv);
  }
  return sharedAjv;
}

/** Validates tool results against their outputSchema; one validator per (server, tool), looked up once. */
export class OutputValidator {
  private readonly cache = new Map<string, ValidateFunction>();

  /** Returns null when the value conforms, or a readable reason. */
  check(server: string, tool: string, schema: JsonSchema, value: unknown): string | null {
    const key = `${server}\u0000${tool}`;
    let validate = this.cache.get(key);
    if (!validate) {
      const { $id: _ignored, ...withoutId } = schema;
      validate = compiled.get(JSON.stringify(withoutId), () => ajv().compile(withoutId));
      this.cache.set(key, validate);
    }
    return validate(value) ? null : ajv().errorsText(validate.errors, { dataVar: "structuredContent" });
  }
}
