import { OnsetlabError } from "../../src/errors.ts";

/** A domain failure of a tool (not found, refused, conflict): returned to the agent as an isError result. */
export class ToolError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "ToolError";
    this.code = code;
  }
}

/** JSON-RPC error codes the mocks use beyond the SDK's ErrorCode enum. */
export const JSONRPC_PERMANENT_ERROR = -32002;

/** A server's pristine state holds something a reset copy could not reproduce (see pristine.ts). */
export class PristineStateError extends OnsetlabError {}
