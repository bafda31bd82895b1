/**
 * Typed errors of the model layer. A provider error names the host (or base URL) it talked to and the
 * fix; configuration problems are InputErrors (the CLI maps them to exit code 2).
 */

import { InputError, OnsetlabError } from "../errors.ts";
import type { CallContext, InvalidReason } from "./types.ts";

/** The base of every runtime failure of a model call. */
export class ModelError extends OnsetlabError {}

/** Nothing answers at the host (connection refused, DNS failure, reset before a response). */
export class ProviderUnreachableError extends ModelError {}

/** The server does not have the model (Ollama: 404 "try pulling it first"). */
export class ModelNotFoundError extends ModelError {}

/** A native-tools run against a model whose capabilities lack "tools". */
export class ToolsUnsupportedError extends ModelError {}

/** The call's own time limit passed. */
export class ModelTimeoutError extends ModelError {}

/** The caller's AbortSignal fired. */
export class ModelAbortedError extends ModelError {}

/** The server answered with an error status or an error object (mid-stream errors included). */
export class ProviderHttpError extends ModelError {
  readonly status: number | undefined;
  constructor(status: number | undefined, message: string, options: ConstructorParameters<typeof ModelError>[2] = {}) {
    super("PROVIDER_HTTP_ERROR", message, { ...options, context: { ...options.context, status } });
    this.status = status;
  }
}

/** The server refused the request because its prompt is longer than the model's window (vLLM, llama.cpp: 400). */
export class ContextOverflowError extends ModelError {}

/**
 * The server's tokenizer counted the prompt longer than the window, so it was not sent (the item is
 * invalid, as after a refusal); carries the call's context accounting for the record.
 */
export class PromptTooLongError extends ContextOverflowError {
  readonly callContext: CallContext;
  constructor(message: string, callContext: CallContext, options: ConstructorParameters<typeof ModelError>[2] = {}) {
    super("PROMPT_TOO_LONG", message, { ...options, context: { ...options.context, ...callContext } });
    this.callContext = callContext;
  }
}

/** The server's answer is not in the shape its API promises. */
export class ProviderProtocolError extends ModelError {}

/** A non-loopback base URL without `allow_remote: true` in the model entry. */
export class RemoteEndpointError extends InputError {}

/** A base URL or host in a model entry (or OPENAI_BASE_URL) that is not a URL. */
export class BadEndpointError extends InputError {}

/** `api_key_env` names an environment variable that is not set. */
export class MissingApiKeyError extends InputError {}

/** A replayed request that the cassette does not hold (or holds fewer times than asked). */
export class CassetteMissError extends ModelError {}

/** A cassette line that is not a valid record (other than a torn last line, which is skipped). */
export class CassetteFormatError extends InputError {}

/** `--record FILE` onto a cassette that already holds calls, without `--append`. */
export class CassetteExistsError extends InputError {}

/**
 * A failure recorded in the cassette that replay cannot throw as its own class (a format 1 cassette kept
 * only its name; a class cassette.ts does not rebuild), thrown with the recorded code and message and the
 * invalid reason it had when recorded (so a replayed server failure still makes its item invalid).
 */
export class ReplayedModelError extends ModelError {
  readonly invalid: InvalidReason | undefined;
  constructor(
    code: string,
    message: string,
    invalid: InvalidReason | undefined,
    options: ConstructorParameters<typeof ModelError>[2] = {},
  ) {
    super(code, message, options);
    this.invalid = invalid;
  }
}

/**
 * A failed call that makes its item invalid rather than wrong: the server failed (5xx after retries, a
 * broken stream, an answer not in its API's shape). Errors that stop the whole run (unreachable, model
 * missing, bad request) and the model's own time limit are not this.
 */
export function failureInvalid(error: unknown): InvalidReason | undefined {
  if (error instanceof ReplayedModelError) return error.invalid;
  if (error instanceof ContextOverflowError) return "context_overflow";
  if (error instanceof ProviderProtocolError) return "server_error";
  if (
    error instanceof ProviderHttpError &&
    (error.status === undefined || error.status >= 500 || error.status === 429)
  ) {
    return "server_error";
  }
  return undefined;
}
