/**
 * How fast a model's server works, from one short timed request: prompt tokens evaluated per second and
 * tokens generated per second (from the durations the server reports), the time a request costs beyond
 * both (the round trip), and the load it waited for. The prompt starts with a fresh nonce, so no prompt
 * cache can hold any of it. A server that reports no durations (most OpenAI-compatible ones) is timed
 * whole, with prompt evaluation assumed ten times as fast as generation.
 */
import { randomUUID } from "node:crypto";
import type { ModelProvider } from "../../models/types.ts";

export interface ServerSpeed {
  promptTokensPerSec: number;
  genTokensPerSec: number;
  /** Milliseconds of a request that are neither evaluation nor generation (round trip, server work). */
  overheadMs: number;
  /** The model load the timed request waited for (0 when it was loaded). */
  loadMs: number;
  /** `reported`: from the server's durations; `whole`: from the request's wall time alone. */
  from: "reported" | "whole";
}

/** Prompt evaluation against generation speed, when a server does not say (a small model on a GPU or a laptop). */
const ASSUMED_PROMPT_SPEEDUP = 10;

const TIMED_PROMPT_WORDS = 200;
const TIMED_OUTPUT_TOKENS = 32;

export async function measureServerSpeed(provider: ModelProvider): Promise<ServerSpeed> {
  const filler = Array.from({ length: TIMED_PROMPT_WORDS }, (_, index) => `word${index}`).join(" ");
  const prompt = `${randomUUID()}\nRepeat these words in order, one a line:\n${filler}\nAnswer:`;
  // the server's facts are read once, before the first request: not part of the timing
  await provider.describe?.();
  const started = performance.now();
  const response = await provider.complete({
    stage: "solver",
    prompt,
    options: { temperature: 0, maxTokens: TIMED_OUTPUT_TOKENS },
  });
  const wallMs = performance.now() - started;
  const { promptTokens, completionTokens } = response.usage;
  const { promptEvalMs, evalMs } = response.timings;
  const loadMs = response.timings.loadMs ?? 0;
  if (promptEvalMs && evalMs && promptTokens > 0 && completionTokens > 0) {
    return {
      promptTokensPerSec: promptTokens / (promptEvalMs / 1000),
      genTokensPerSec: completionTokens / (evalMs / 1000),
      overheadMs: Math.max(0, wallMs - loadMs - promptEvalMs - evalMs),
      loadMs,
      from: "reported",
    };
  }
  // wall = prompt / (k·g) + completion / g, in seconds
  const workTokens = promptTokens / ASSUMED_PROMPT_SPEEDUP + Math.max(1, completionTokens);
  const genTokensPerSec = workTokens / (Math.max(1, wallMs - loadMs) / 1000);
  return {
    promptTokensPerSec: genTokensPerSec * ASSUMED_PROMPT_SPEEDUP,
    genTokensPerSec,
    overheadMs: 0,
    loadMs,
    from: "whole",
  };
}
