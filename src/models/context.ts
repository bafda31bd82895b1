/**
 * Context accounting of one call to a real server: a token estimate made before sending, the window the
 * request gets (`num_ctx: auto` sizes it), and after the answer whether the prompt fitted.
 *
 * Tokens are estimated from characters. Small models' BPE vocabularies give about 4 characters a token
 * on English prose and 3–3.5 on JSON schemas and code; the estimate that sizes a window is the high one
 * (`chars / 3`), so an `auto` window is never too small, and the one that proves an overflow before any
 * answer is the low one (`chars / 5`), so a call is never flagged on a guess. Between the two the
 * estimate cannot decide: a server's tokenizer, where it has one (tokenizer.ts), counts the prompt
 * exactly before it is sent; else the server's own prompt count decides after the answer (Ollama cuts an
 * overlong prompt from the front and reports `prompt_eval_count` equal to the window).
 */

import type { CallContext, ChatMessage, ChatTool, InvalidReason } from "./types.ts";

/** `auto` windows are multiples of this (Ollama reloads a model whenever num_ctx changes: few sizes, few reloads). */
export const WINDOW_STEP = 2048;

/** Per message: the chat template's role markers and separators. */
const MESSAGE_OVERHEAD_CHARS = 16;

/** The characters a request puts in the prompt: the text, each message with its markers, the tool schemas. */
export function promptChars(input: {
  prompt?: string;
  messages?: readonly ChatMessage[];
  tools?: readonly ChatTool[];
}): number {
  let chars = input.prompt?.length ?? 0;
  for (const message of input.messages ?? []) {
    chars += message.content.length + MESSAGE_OVERHEAD_CHARS;
    for (const call of message.toolCalls ?? []) chars += call.name.length + JSON.stringify(call.arguments).length;
  }
  if (input.tools?.length) chars += JSON.stringify(input.tools).length;
  return chars;
}

/** The high estimate: what sizes a window. */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 3);
}

/** The low estimate: a prompt above the window even by this count certainly did not fit. */
export function minimumTokens(chars: number): number {
  return Math.floor(chars / 5);
}

/** What the character estimate says of a prompt against a window: it fits, it overflows, or it cannot tell. */
export type EstimateVerdict = "fits" | "overflows" | "undecided";

export function estimateVerdict(chars: number, window: number | undefined): EstimateVerdict {
  if (window === undefined || estimateTokens(chars) <= window) return "fits";
  return minimumTokens(chars) > window ? "overflows" : "undecided";
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
  return (context.counted ?? minimumTokens(chars)) > context.window;
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
