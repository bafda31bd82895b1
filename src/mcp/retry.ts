import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { ToolErrorKind } from "./types.ts";

/** Waits before the 2nd, 3rd and 4th attempt of a transient failure; then the call gives up. */
export const RETRY_DELAYS_MS = [100, 400, 1600] as const;

export interface Classification {
  kind: ToolErrorKind;
  retry: boolean;
  /** The connection is gone: restart the server before retrying. */
  restart: boolean;
  code?: number;
  message: string;
}

interface Rule {
  when: (code: number | undefined, message: string) => boolean;
  kind: ToolErrorKind;
  retry: boolean;
  restart?: boolean;
}

/** The retry table, in one place. First matching rule wins. */
export const RETRY_TABLE: readonly Rule[] = [
  { when: (_, m) => m === "aborted", kind: "aborted", retry: false },
  { when: (c) => c === ErrorCode.ConnectionClosed, kind: "transient", retry: true, restart: true },
  { when: (_, m) => /not connected/i.test(m), kind: "transient", retry: true, restart: true },
  { when: (c) => c === ErrorCode.RequestTimeout, kind: "timeout", retry: true },
  { when: (c) => c === ErrorCode.InternalError, kind: "transient", retry: true },
  { when: (c, m) => c === ErrorCode.InvalidParams && /unknown tool/i.test(m), kind: "unknown_tool", retry: false },
  { when: (c) => c === ErrorCode.InvalidParams, kind: "invalid_params", retry: false },
  { when: (c) => c === -32002, kind: "permanent", retry: false },
  { when: () => true, kind: "permanent", retry: false },
];

export function classifyError(error: unknown, signal?: AbortSignal): Classification {
  const code = error instanceof McpError ? error.code : undefined;
  const message = signal?.aborted ? "aborted" : error instanceof Error ? error.message : String(error);
  const rule = RETRY_TABLE.find((candidate) => candidate.when(code, message)) as Rule;
  return { kind: rule.kind, retry: rule.retry, restart: rule.restart ?? false, code, message };
}
