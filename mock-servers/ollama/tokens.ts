/**
 * The stand-in's token arithmetic: a token is estimated as 4 characters, everywhere — the window a
 * prompt is cut to, `prompt_eval_count`, the output cut at `num_predict` / `max_tokens`, `eval_count`.
 * A harness that estimates the same way can predict what the stand-in will report.
 */

export const CHARS_PER_TOKEN = 4;

/** Tokens of a text: `Math.ceil(chars / 4)`. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** The characters that `tokens` tokens hold. */
export function charsOf(tokens: number): number {
  return tokens * CHARS_PER_TOKEN;
}
