import { OnsetlabError } from "../errors.ts";

/**
 * A decoder's "this text is not valid": expected data (a model's malformed output), thrown and caught
 * inside the decoders a hundred times per scoring pass. Its stack is never read, and capturing one
 * was the costliest part of throwing it, so none is captured. The Python kit's syntax and evaluation
 * errors are DecodeFailures, and so are the BFCL track's other decoders' (src/python/json-tagged.ts).
 */
export class DecodeFailure extends OnsetlabError {
  constructor(code: string, message: string, options: { context?: Record<string, unknown> } = {}) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(code, message, options);
    Error.stackTraceLimit = limit;
  }
}
