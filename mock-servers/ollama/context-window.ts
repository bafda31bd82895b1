/**
 * The context window as Ollama applies it. The window is the request's `num_ctx` (Ollama's API only),
 * else the server's default, capped at the model's trained length. What does not fit is cut by the
 * harness's one model of Ollama's truncation (src/models/prompt-size.ts `fitToWindow`: whole old
 * messages first, then token by token from the front of the prompt), measured on the stand-in's own
 * rendering (render.ts); `prompt_eval_count` is then exactly the window. The answer is still 200 with a
 * normal done_reason: nothing tells the client.
 */

import { estimateTokens, type Fitted, fitToWindow as fitPrompt } from "../../src/models/prompt-size.ts";
import { renderStandinPrompt, standinRenderer } from "./render.ts";
import type { StandinInput } from "./request.ts";

/** The rendered prompt's tokens: `prompt_eval_count` of a prompt that fits, and what the tokenizer endpoints count. */
export function promptTokensOf(input: StandinInput): number {
  return estimateTokens.nominal(renderStandinPrompt(input).length);
}

/** The window a request gets: its num_ctx or the default, never above the model's trained length. */
export function windowOf(numCtx: number | undefined, defaultNumCtx: number, contextLength: number): number {
  return Math.min(numCtx ?? defaultNumCtx, contextLength);
}

/** What the model reads of a request in a window of `window` tokens. */
export function fitToWindow(input: StandinInput, window: number): Fitted<StandinInput> {
  return fitPrompt(input, window, standinRenderer);
}
