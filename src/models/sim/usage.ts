/**
 * Simulated cost of a call: nominal tokens (prompt-size.ts, 4 characters each), durations derived from them at the
 * profile's speeds. Deterministic; nothing sleeps unless a pace is asked for (the stand-in server's
 * imitation of a real model's timing).
 */

import { ModelAbortedError } from "../errors.ts";
import { estimateTokens } from "../prompt-size.ts";
import type { ModelTimings, ModelUsage } from "../types.ts";
import type { SimSpeed } from "./catalog.ts";

/** The prompt is measured by its caller (its length in characters); the completion is at hand. */
export function simUsage(promptChars: number, completion: string): ModelUsage {
  return {
    promptTokens: estimateTokens.nominal(promptChars),
    completionTokens: estimateTokens.nominal(completion.length),
  };
}

/** Load + prompt evaluation + generation; `evalTokensPerSec` overrides the profile's generation speed. */
export function simTimings(
  usage: ModelUsage,
  speed: SimSpeed,
  evalTokensPerSec = speed.evalTokensPerSec,
): ModelTimings {
  const promptEvalMs = round((usage.promptTokens / speed.promptTokensPerSec) * 1000);
  const evalMs = round((usage.completionTokens / evalTokensPerSec) * 1000);
  return { totalMs: round(speed.loadMs + promptEvalMs + evalMs), loadMs: speed.loadMs, promptEvalMs, evalMs };
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** Waits `ms`, or rejects with ModelAbortedError when the signal fires first. */
export function pause(ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () =>
      new ModelAbortedError("MODEL_ABORTED", `${what} aborted by the caller`, { cause: signal?.reason });
    if (signal?.aborted) {
      reject(aborted());
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
