import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { ToolErrorKind } from "./types.ts";

/** Waits before the 2nd, 3rd and 4th attempt of a transient failure; then the call gives up. */
export const RETRY_DELAYS_MS = [100, 400, 1600] as const;

/** JSON-RPC codes of the mock servers beyond the SDK's (mock-servers/kit/errors.ts sends them). */
export const TOOL_ERROR_CODES = {
  permanent: -32002,
  timeLimit: -32010,
  memoryLimit: -32011,
  deterministicFailure: -32012,
} as const;

export interface Classification {
  kind: ToolErrorKind;
  retry: boolean;
  /** The server may be gone or stuck: restart it (before a retry, or after the last attempt). */
  restart: boolean;
  code?: number;
  message: string;
  /** Why this failure is (not) retried: the rule's reason. */
  reason: string;
}

interface Rule {
  when: (code: number | undefined, message: string) => boolean;
  kind: ToolErrorKind;
  retry: boolean;
  restart?: boolean;
  reason: string;
}

/** The retry table, in one place. First matching rule wins. */
export const RETRY_TABLE: readonly Rule[] = [
  {
    when: (_, m) => m === "aborted",
    kind: "aborted",
    retry: false,
    reason: "the caller stopped the query (its total time limit, Ctrl-C): nobody waits for an answer",
  },
  {
    when: (c) => c === ErrorCode.ConnectionClosed,
    kind: "transient",
    retry: true,
    restart: true,
    reason: "the server went away (crash, exit): a restarted server usually answers",
  },
  {
    when: (_, m) => /not connected/i.test(m),
    kind: "transient",
    retry: true,
    restart: true,
    reason: "the link to the server is gone: a restarted server usually answers",
  },
  {
    when: (c) => c === ErrorCode.RequestTimeout,
    kind: "timeout",
    retry: false,
    restart: true,
    reason:
      "no answer within the call's time limit: the same call would hang again, and the server may be stuck, so it is restarted for the calls after it",
  },
  {
    when: (c) => c === TOOL_ERROR_CODES.timeLimit,
    kind: "timeout",
    retry: false,
    reason: "the server stopped the tool at its time budget: the same input runs as long again",
  },
  {
    when: (c) => c === TOOL_ERROR_CODES.memoryLimit,
    kind: "permanent",
    retry: false,
    reason: "the tool ran out of its memory budget: the same input needs as much again",
  },
  {
    when: (c) => c === TOOL_ERROR_CODES.deterministicFailure,
    kind: "permanent",
    retry: false,
    reason: "the tool failed on this input (stack overflow, sandbox abort): it fails the same way on every try",
  },
  {
    when: (c) => c === ErrorCode.InternalError,
    kind: "transient",
    retry: true,
    reason: "an internal error the server does not call permanent (an injected fault, a passing failure)",
  },
  {
    when: (c, m) => c === ErrorCode.InvalidParams && /unknown tool/i.test(m),
    kind: "unknown_tool",
    retry: false,
    reason: "the server has no such tool",
  },
  {
    when: (c) => c === ErrorCode.InvalidParams,
    kind: "invalid_params",
    retry: false,
    reason: "the arguments are wrong: only the model can change them",
  },
  {
    when: (c) => c === TOOL_ERROR_CODES.permanent,
    kind: "permanent",
    retry: false,
    reason: "the server says the failure is permanent",
  },
  {
    when: () => true,
    kind: "permanent",
    retry: false,
    reason: "an unknown failure: not retried, so a bug costs one call and not four",
  },
];

export function classifyError(error: unknown, signal?: AbortSignal): Classification {
  const code = error instanceof McpError ? error.code : undefined;
  const message = signal?.aborted ? "aborted" : error instanceof Error ? error.message : String(error);
  const rule = RETRY_TABLE.find((candidate) => candidate.when(code, message)) as Rule;
  return { kind: rule.kind, retry: rule.retry, restart: rule.restart ?? false, code, message, reason: rule.reason };
}
