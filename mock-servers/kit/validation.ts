import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { JsonSchema } from "./types.ts";

// ajv-formats ships CJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** One ajv instance for the mock servers' input validation (strict off: schemas mirror third-party servers). */
export function createAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv;
}

export function compileSchema(ajv: Ajv, schema: JsonSchema): ValidateFunction {
  return ajv.compile(schema);
}

export interface ArgumentProblems {
  missing: string[];
  messages: string[];
}

/** Turns ajv errors into messages an agent (and its rescue stage) can act on. */
export function describeArgumentErrors(errors: ErrorObject[] | null | undefined): ArgumentProblems {
  const missing: string[] = [];
  const messages: string[] = [];
  for (const error of errors ?? []) {
    if (error.keyword === "required") {
      const name = String((error.params as { missingProperty: string }).missingProperty);
      const path = error.instancePath ? `${error.instancePath.slice(1).replaceAll("/", ".")}.` : "";
      missing.push(`${path}${name}`);
      messages.push(`missing required parameter: ${path}${name}`);
    } else if (error.keyword === "enum") {
      const allowed = (error.params as { allowedValues: unknown[] }).allowedValues.map(String).join(", ");
      messages.push(`invalid parameter ${paramName(error)}: must be one of ${allowed}`);
    } else {
      messages.push(`invalid parameter ${paramName(error)}: ${error.message ?? error.keyword}`);
    }
  }
  return { missing, messages };
}

function paramName(error: ErrorObject): string {
  return error.instancePath ? `"${error.instancePath.slice(1).replaceAll("/", ".")}"` : "(arguments)";
}
