/**
 * What the HTTP providers share: one deadline per call (the caller's signal and a time limit), a fetch
 * bound to it, the mapping of a failed call to a typed error that names the endpoint and the fix, the
 * loopback check, and a line reader for streamed bodies.
 */

import { isIP } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { startDeadline } from "../abort.ts";
import {
  ModelAbortedError,
  ModelError,
  ModelTimeoutError,
  ProviderHttpError,
  ProviderUnreachableError,
} from "./errors.ts";

/**
 * Sent with every request: names the pipeline stage, so the stand-in server can hand its simulator the
 * stage the prompt came from. Real servers ignore unknown headers; nothing else depends on it.
 */
export const STAGE_HEADER = "x-onsetlab-stage";

/** A call with no `timeoutMs` of its own and none from the model entry gets this long. */
export const DEFAULT_CALL_TIMEOUT_MS = 120_000;

export interface CallTarget {
  /** Host or base URL, as the error messages name it. */
  endpoint: string;
  /** What to do when nothing answers, e.g. "start it with `ollama serve`". */
  unreachableHint: string;
}

export interface CallLimits {
  signal?: AbortSignal;
  timeoutMs: number;
}

/**
 * Runs one provider call under the caller's signal and a time limit. The call receives the combined
 * signal; any failure comes out typed: aborted, timed out, unreachable, or the call's own ModelError.
 */
export async function guardedCall<T>(
  target: CallTarget,
  limits: CallLimits,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  if (limits.signal?.aborted) throw abortedError(target, limits.signal);
  const deadline = startDeadline(limits.timeoutMs, limits.signal);
  try {
    return await call(deadline.signal);
  } catch (error) {
    if (limits.signal?.aborted) throw abortedError(target, limits.signal, error);
    if (deadline.expired) {
      throw new ModelTimeoutError("MODEL_TIMEOUT", `no answer from ${target.endpoint} within ${limits.timeoutMs} ms`, {
        context: { endpoint: target.endpoint, timeoutMs: limits.timeoutMs },
        cause: error,
      });
    }
    if (error instanceof ModelError) throw error;
    const network = networkFailure(error);
    if (network) {
      throw new ProviderUnreachableError(
        "PROVIDER_UNREACHABLE",
        // a blocked port is not a server to start: its cause already says what to do
        `cannot reach ${target.endpoint} (${networkCause(network)})${network === BAD_PORT ? "" : `: ${target.unreachableHint}`}`,
        { context: { endpoint: target.endpoint, reason: network }, cause: error },
      );
    }
    throw error;
  } finally {
    // the call has read its whole answer (streams included) by now
    deadline.dispose();
  }
}

function abortedError(target: CallTarget, signal: AbortSignal, cause?: unknown): ModelAbortedError {
  const reason = signal.reason instanceof Error ? signal.reason.message : String(signal.reason ?? "aborted");
  return new ModelAbortedError("MODEL_ABORTED", `call to ${target.endpoint} aborted by the caller: ${reason}`, {
    context: { endpoint: target.endpoint },
    cause: cause ?? signal.reason,
  });
}

/** A fetch whose every request also stops when `signal` fires (for clients that take a custom fetch). */
export function fetchWithSignal(signal: AbortSignal): typeof fetch {
  return (input, init) =>
    fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
}

/** Node's fetch refuses the fetch standard's blocked ports (1, 7, 9 … 6000) with `bad port`, no code. */
const BAD_PORT = "BAD_PORT";

/** What each system error code means, for the one line a stopped run ends with. */
const NETWORK_CODES: ReadonlyMap<string, string> = new Map([
  ["ECONNREFUSED", "connection refused"],
  ["ECONNRESET", "connection reset"],
  ["ENOTFOUND", "DNS: no such host"],
  ["EAI_AGAIN", "DNS lookup failed"],
  ["EHOSTUNREACH", "host unreachable"],
  ["ENETUNREACH", "network unreachable"],
  ["EPIPE", "connection closed"],
  ["UND_ERR_SOCKET", "connection closed"],
  ["UND_ERR_CONNECT_TIMEOUT", "connect timed out"],
  ["EPROTO", "TLS handshake failed"],
  ["ERR_SSL_WRONG_VERSION_NUMBER", "TLS: the server does not speak TLS (use http://)"],
  ["ERR_SSL_PACKET_LENGTH_TOO_LONG", "TLS: the server does not speak TLS (use http://)"],
  ["DEPTH_ZERO_SELF_SIGNED_CERT", "TLS: self-signed certificate"],
  ["SELF_SIGNED_CERT_IN_CHAIN", "TLS: self-signed certificate in chain"],
  ["UNABLE_TO_VERIFY_LEAF_SIGNATURE", "TLS: certificate not verifiable"],
  ["CERT_HAS_EXPIRED", "TLS: certificate expired"],
  ["ERR_TLS_CERT_ALTNAME_INVALID", "TLS: certificate is for another host"],
  [BAD_PORT, "fetch refuses to connect to this port, one the fetch standard blocks: serve on another port"],
]);

/** Network failures worth another attempt: the connection was there and broke. */
const TRANSIENT_CODES = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET"]);

/** A readable cause for a network failure's code, e.g. `ECONNREFUSED: connection refused`. */
export function networkCause(code: string): string {
  const meaning = NETWORK_CODES.get(code);
  return meaning ? `${code}: ${meaning}` : code;
}

/** The system error code when `error` is fetch failing to talk to the server at all, else undefined. */
export function networkFailure(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_CODES.has(code)) return code;
    if ((current as { message?: unknown }).message === "bad port") return BAD_PORT;
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors)) {
      const inner = errors.map(networkFailure).find((found) => found !== undefined);
      if (inner) return inner;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export interface RetryPolicy {
  /** The wait before each further attempt, in ms: as many attempts more as there are waits. */
  delaysMs: readonly number[];
}

/** 0.5 s, 1 s, 2 s, 4 s: a busy Ollama (503: its queue is full) usually has room again within seconds. */
export const DEFAULT_RETRY: RetryPolicy = { delaysMs: [500, 1000, 2000, 4000] };

/** Status codes that say "not now" rather than "never": busy, rate-limited, a gateway between restarts. */
const TRANSIENT_STATUS = new Set([429, 502, 503, 504]);

/** Whether another attempt may succeed: a transient status, or a connection that broke. */
export function isTransient(error: unknown): boolean {
  if (error instanceof ProviderHttpError) return error.status !== undefined && TRANSIENT_STATUS.has(error.status);
  const code = networkFailure(error);
  return code !== undefined && TRANSIENT_CODES.has(code);
}

/**
 * Runs `attempt`, and again after each wait of the policy while it fails transiently and the signal has
 * not fired; the last failure is thrown as it is.
 */
export async function withRetries<T>(
  policy: RetryPolicy | undefined,
  signal: AbortSignal,
  attempt: () => Promise<T>,
): Promise<T> {
  const delays = (policy ?? DEFAULT_RETRY).delaysMs;
  for (let index = 0; ; index++) {
    try {
      return await attempt();
    } catch (error) {
      if (index >= delays.length || !isTransient(error) || signal.aborted) throw error;
      await sleep(delays[index], undefined, { signal }).catch(() => {
        throw error;
      });
    }
  }
}

/** True for localhost, 127.0.0.0/8 and ::1 (and IPv4-mapped loopback). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  if (isIP(host) === 6) return host === "::1" || /^::ffff:127\./.test(host);
  return false;
}

/** Lines of a streamed body (NDJSON or SSE), decoded as UTF-8, without their line ends. */
export async function* readLines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf("\n");
    while (end >= 0) {
      yield buffer.slice(0, end).replace(/\r$/, "");
      buffer = buffer.slice(end + 1);
      end = buffer.indexOf("\n");
    }
  }
  buffer += decoder.decode();
  if (buffer.length > 0) yield buffer.replace(/\r$/, "");
}

/** Nanoseconds (Ollama's durations) to milliseconds; undefined stays undefined. */
export function nsToMs(ns: number | undefined): number | undefined {
  return typeof ns === "number" && Number.isFinite(ns) ? ns / 1e6 : undefined;
}
