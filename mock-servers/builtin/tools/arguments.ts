import { ToolError } from "../../kit/errors.ts";

/**
 * Reads a parameter that only some operations need. The message mirrors the kit's schema errors
 * ("missing required parameter: X") so the agent's rescue stage can recognise it.
 */
export function requireParameter<T>(args: Record<string, unknown>, name: string, operation: string): T {
  const value = args[name];
  if (value === undefined || value === null || value === "") {
    throw new ToolError("missing_parameter", `missing required parameter: ${name} (operation "${operation}" needs it)`);
  }
  return value as T;
}
