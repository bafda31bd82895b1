/**
 * Context accounting of one call to a real server: a token estimate made before sending, the window the
 * request gets (`num_ctx: auto` sizes it), and after the answer whether the prompt fitted.
 *
 * Tokens are estimated from the rendered prompt's characters (prompt-size.ts): the estimate that sizes a
 * window is the high one, so an `auto` window is never too small, and the one that proves an overflow
 * before any answer is the low one, so a call is never flagged on a guess. Between the two the
 * estimate cannot decide: a server's tokenizer, where it has one (tokenizer.ts), counts the prompt
 * exactly before it is sent; else the server's own prompt count decides after the answer (Ollama cuts an
 * overlong prompt from the front and reports `prompt_eval_count` equal to the window).
 */

import { estimateTokens } from "./prompt-size.ts";
import type { CallContext, InvalidReason } from "./types.ts";

/** `auto` windows are multiples of this (Ollama reloads a model whenever num_ctx changes: few sizes, few reloads). */
export const WINDOW_STEP = 2048;

/** What the character estimate says of a prompt against a window: it fits, it overflows, or it cannot tell. */
export type EstimateVerdict = "fits" | "overflows" | "undecided";

export function estimateVerdict(chars: number, window: number | undefined): EstimateVerdict {
  if (window === undefined || estimateTokens.high(chars) <= window) return "fits";
  return estimateTokens.low(chars) > window ? "overflows" : "undecided";
}

/** How vLLM ("maximum context length is …") and llama.cpp ("exceeds the available context size") refuse a long prompt. */
export const CONTEXT_REFUSAL = /maximum context length|context size|context window|context_length_exceeded/i;

/** The `auto` window for a prompt and an output cap: rounded up to WINDOW_STEP, at most `maxWindow`. */
export function autoWindow(estimate: number, outputCap: number, maxWindow: number | undefined): number {
  const wanted = Math.ceil((estimate + outputCap) / WINDOW_STEP) * WINDOW_STEP;
  return maxWindow === undefined ? wanted : Math.min(wanted, maxWindow);
}

/**
 * Whether the prompt overflowed its window: the server counted the whole window (it cut the prompt to
 * fit; a prompt the tokenizer counted at exactly that many tokens was not cut), or the prompt is larger
 * than the window by the tokenizer's exact count where one was made, else by its low estimate alone.
 */
export function overflowed(context: CallContext, chars: number, promptTokens: number | undefined): boolean {
  if (context.window === undefined) return false;
  const cut = promptTokens !== undefined && promptTokens > 0 && promptTokens >= context.window;
  if (cut && promptTokens !== context.counted) return true;
  return (context.counted ?? estimateTokens.low(chars)) > context.window;
}

/** The invalid reason of an answer, if any: an overflow first (a cut prompt explains everything after it). */
export function answerInvalid(input: {
  context: CallContext;
  chars: number;
  promptTokens: number | undefined;
  doneReason: string | undefined;
}): InvalidReason | undefined {
  if (overflowed(input.context, input.chars, input.promptTokens)) return "context_overflow";
  if (input.doneReason === "length") return "output_truncated";
  return undefined;
}
