import { ToolError } from "../kit/errors.ts";

/** Notion's 400 for a request that breaks the API's body or path rules. */
export function validationError(message: string): ToolError {
  return new ToolError("validation_error", message);
}

/** Notion's 404: the ID is well-formed but no object of that kind is visible to the integration. */
export function notFound(kind: string, id: string): ToolError {
  return new ToolError(
    "object_not_found",
    `Could not find ${kind} with ID: ${id}. Make sure the relevant pages and databases are shared with your integration.`,
  );
}
