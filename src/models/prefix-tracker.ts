/**
 * Measures what a server's prompt cache could reuse: for every request sent to one model, the prefix
 * (in tokens, at 4 characters each) it shares with what the previous request to that model left in the
 * server's KV cache (that request's prompt and answer). The answer carries it as `sharedPrefixTokens`,
 * and the recorder keeps it on the call's record. One tracker per model, shared by every provider of
 * that model in a run, below any cache of answers: only requests that reach the server count.
 */

import { sharedPrefixChars, wholeTokens } from "./prompt-size.ts";
import { cachedAfter, callsText, type PromptInput, renderPrompt } from "./prompt-text.ts";
import type { ChatResponse, CompletionResponse, ModelProvider } from "./types.ts";

export class PrefixTracker {
  /** What the previous request left in the server's cache. */
  private last = "";

  /** The tokens `input` shares with the previous request; it becomes the previous one. */
  sent(input: PromptInput): { sharedTokens: number; prompt: string } {
    const prompt = renderPrompt(input);
    const sharedTokens = wholeTokens(sharedPrefixChars(this.last, prompt));
    this.last = prompt;
    return { sharedTokens, prompt };
  }

  /** The answer to the request whose rendered prompt is `prompt` joins it, unless a later request was sent since. */
  answered(input: PromptInput, prompt: string, output: string): void {
    if (this.last === prompt) this.last = cachedAfter(input, prompt, output);
  }
}

/** The provider, its answers carrying the prefix each request shared with the model's previous one. */
export function trackPrefixes(provider: ModelProvider, tracker: PrefixTracker): ModelProvider {
  const track = async <R extends CompletionResponse>(
    input: PromptInput,
    call: () => Promise<R>,
    output: (response: R) => string,
  ): Promise<R> => {
    const { sharedTokens, prompt } = tracker.sent(input);
    const response = await call();
    tracker.answered(input, prompt, output(response));
    return { ...response, sharedPrefixTokens: sharedTokens };
  };
  return {
    id: provider.id,
    complete: (request) =>
      track(
        { prompt: request.prompt },
        () => provider.complete(request),
        (response) => response.text,
      ),
    chat: (request) =>
      track(
        { messages: request.messages, tools: request.tools ?? [] },
        () => provider.chat(request),
        (response: ChatResponse) => response.text + callsText(response.toolCalls),
      ),
    ...(provider.describe ? { describe: () => provider.describe!() } : {}),
    ...(provider.warmUp ? { warmUp: () => provider.warmUp!() } : {}),
  };
}
