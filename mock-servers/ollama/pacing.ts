/**
 * The stand-in's imitation of a real model's timing. With a pace of N tokens/s, generating C tokens
 * takes C/N s and evaluating a P-token prompt P/(N·PROMPT_SPEEDUP) s (prompt processing runs much faster
 * than generation on real hardware); the answer is held back — or streamed piece by piece — to match,
 * and the reported durations are exactly these. Without a pace, the durations are the measured time.
 * A cold start's load time comes before either.
 */

import { setTimeout as sleep } from "node:timers/promises";
import type { ModelUsage } from "../../src/models/types.ts";

/** How much faster a prompt token is evaluated than a completion token is generated. */
export const PROMPT_SPEEDUP = 10;

export interface TimingPlan {
  loadMs: number;
  promptEvalMs: number;
  evalMs: number;
  totalMs: number;
}

/** What a request really took: waiting for the load, preparing the prompt, the provider's answer. */
export interface MeasuredMs {
  loadMs: number;
  promptEvalMs: number;
  evalMs: number;
}

export function planTimings(usage: ModelUsage, measured: MeasuredMs, pace: number | undefined): TimingPlan {
  const { loadMs } = measured;
  if (!pace) return { ...measured, totalMs: loadMs + measured.promptEvalMs + measured.evalMs };
  const promptEvalMs = (usage.promptTokens / (pace * PROMPT_SPEEDUP)) * 1000;
  const evalMs = (usage.completionTokens / pace) * 1000;
  const work = Math.max(measured.promptEvalMs + measured.evalMs, promptEvalMs + evalMs);
  return { loadMs, promptEvalMs, evalMs, totalMs: loadMs + work };
}

/** Milliseconds to Ollama's nanoseconds; a measured instant that took any time at all is at least 1 ns. */
export function toNs(ms: number): number {
  return Math.ceil(ms * 1e6);
}

/** Streamed pieces, roughly a token each: every word with the whitespace before it. Joined, they are `text`. */
export function splitPieces(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

/** A streamed answer's pieces: the thinking's first, then the text's. */
export function outputPieces(thinking: string, text: string): { text: string; thinking?: string }[] {
  return [
    ...splitPieces(thinking).map((piece) => ({ text: "", thinking: piece })),
    ...splitPieces(text).map((piece) => ({ text: piece })),
  ];
}

/**
 * Waits until `at` (a performance.now() time); stops early, throwing, when the client went away. Timers
 * have whole-millisecond clocks and may fire a fraction early: it sleeps again until `at` has passed.
 */
export async function waitUntil(at: number, signal: AbortSignal): Promise<void> {
  for (let delay = at - performance.now(); delay > 0; delay = at - performance.now()) {
    await sleep(Math.max(1, Math.ceil(delay)), undefined, { signal });
  }
}

/** Emits the pieces spread over the plan's generation time, after its prompt evaluation. */
export async function emitPaced<T>(
  pieces: readonly T[],
  plan: TimingPlan,
  started: number,
  signal: AbortSignal,
  emit: (piece: T) => void,
): Promise<void> {
  const generationStart = started + plan.loadMs + plan.promptEvalMs;
  await waitUntil(generationStart, signal);
  for (const [index, piece] of pieces.entries()) {
    await waitUntil(generationStart + (plan.evalMs * (index + 1)) / pieces.length, signal);
    emit(piece);
  }
  await waitUntil(started + plan.totalMs, signal);
}
