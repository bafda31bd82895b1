/**
 * The stand-in's token arithmetic: a token is estimated as 4 characters, everywhere — the window a
 * prompt is cut to, `prompt_eval_count`, the prompt cache, the output cut at `num_predict` /
 * `max_tokens`, `eval_count`. The estimate is the harness's nominal one (src/models/prompt-size.ts), so the
 * harness can predict what the stand-in will report.
 */

import { CHARS_PER_TOKEN, estimateTokens } from "../../src/models/prompt-size.ts";

export { CHARS_PER_TOKEN };

/** A text's tokens. */
export function tokensOf(text: string): number {
  return estimateTokens.nominal(text.length);
}

/** The characters that `tokens` tokens hold. */
export function charsOf(tokens: number): number {
  return tokens * CHARS_PER_TOKEN;
}
