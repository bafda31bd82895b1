/**
 * Errors of the HTTP and MCP services, and how any error becomes the JSON error body
 * `{"error": {"code", "message", "field"?}}` with its status.
 */
import { InputError, OnsetlabError } from "../errors.ts";

export type ApiStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 500;

/** A request the service refuses: the status, and the field at fault when one is. */
export class ApiError extends OnsetlabError {
  readonly status: ApiStatus;
  readonly field: string | undefined;

  constructor(
    status: ApiStatus,
    code: string,
    message: string,
    options: { field?: string; context?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(code, message, options);
    this.status = status;
    this.field = options.field;
  }
}

export interface ErrorBody {
  error: { code: string; message: string; field?: string };
}

/** Status and body of any error: ApiError as it says, bad input 400, other errors 500 with their code. */
export function errorBody(error: unknown): { status: ApiStatus; body: ErrorBody } {
  if (error instanceof ApiError) {
    return {
      status: error.status,
      body: { error: { code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}) } },
    };
  }
  if (error instanceof InputError) {
    return { status: 400, body: { error: { code: error.code, message: error.message } } };
  }
  const code = error instanceof OnsetlabError ? error.code : "INTERNAL";
  const message = error instanceof Error ? error.message : String(error);
  return { status: 500, body: { error: { code, message } } };
}
