/**
 * The stand-in's imitation of a real model's timing. With rates set, evaluating P prompt tokens takes
 * P/promptRate s — only the tokens the slot's prompt cache did not hold — and generating C tokens C/genRate
 * s; `--pace N` is genRate N with promptRate 10·N (prompt processing runs much faster than generation on
 * real hardware). Every modelled time is multiplied by the time scale (0.1: ten times faster), and the
 * answer is held back — or streamed piece by piece — to match, so the reported durations are the times
 * really waited. Without rates, the durations are the measured time. A cold start's load time comes
 * before either.
 */

import { setTimeout as sleep } from "node:timers/promises";

/** How much faster a prompt token is evaluated than a completion token is generated, under `--pace`. */
export const PROMPT_SPEEDUP = 10;

/** Tokens per second the stand-in imitates, and the factor every modelled time is multiplied by. */
export interface Rates {
  promptRate: number;
  genRate: number;
  timeScale: number;
}

/** The rates options ask for: explicit rates over the ones `pace` implies; undefined: unpaced. */
export function ratesOf(options: {
  pace?: number;
  promptRate?: number;
  genRate?: number;
  timeScale?: number;
}): Rates | undefined {
  const genRate = options.genRate ?? options.pace;
  const promptRate = options.promptRate ?? (options.pace ? options.pace * PROMPT_SPEEDUP : undefined);
  if (genRate === undefined && promptRate === undefined) return undefined;
  // one rate alone: the other as --pace would have it
  return {
    promptRate: promptRate ?? (genRate as number) * PROMPT_SPEEDUP,
    genRate: genRate ?? (promptRate as number) / PROMPT_SPEEDUP,
    timeScale: options.timeScale ?? 1,
  };
}

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

/** The work to time: the prompt tokens evaluated (not those in the cache) and the tokens generated. */
export interface Work {
  evaluatedTokens: number;
  completionTokens: number;
}

export function planTimings(work: Work, measured: MeasuredMs, rates: Rates | undefined): TimingPlan {
  const { loadMs } = measured;
  if (!rates) return { ...measured, totalMs: loadMs + measured.promptEvalMs + measured.evalMs };
  const promptEvalMs = (work.evaluatedTokens / rates.promptRate) * 1000 * rates.timeScale;
  const evalMs = (work.completionTokens / rates.genRate) * 1000 * rates.timeScale;
  const spent = Math.max(measured.promptEvalMs + measured.evalMs, promptEvalMs + evalMs);
  return { loadMs, promptEvalMs, evalMs, totalMs: loadMs + spent };
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
