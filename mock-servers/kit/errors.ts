import { OnsetlabError } from "../../src/errors.ts";
import { TOOL_ERROR_CODES } from "../../src/tool-protocol/retry.ts";

/** A domain failure of a tool (not found, refused, conflict): returned to the agent as an isError result. */
export class ToolError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "ToolError";
    this.code = code;
  }
}

/** The client's table of JSON-RPC error codes, passed on so a server's tests need not import src/mcp. */
export { TOOL_ERROR_CODES };

/** JSON-RPC error code of an injected permanent failure (the others: TOOL_ERROR_CODES, src/tool-protocol/retry.ts). */
export const JSONRPC_PERMANENT_ERROR = TOOL_ERROR_CODES.permanent;

/** A server's pristine state holds something a reset copy could not reproduce (see pristine.ts). */
export class PristineStateError extends OnsetlabError {}

export type BudgetKind = "time" | "memory" | "crash";

/**
 * A tool's work was stopped by its budget (time, memory) or crashed its worker on this input; `kind` picks the
 * JSON-RPC code (src/tool-protocol/retry.ts says why none is retried).
 */
export class ToolBudgetError extends OnsetlabError {
  constructor(
    readonly kind: BudgetKind,
    message: string,
    options: { context?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(`tool_${kind}_limit`, message, options);
  }
}
