/**
 * What the stand-in has served since it started (or since the last reset), read at
 * `GET /__standin/stats` and reset with `POST /__standin/stats/reset`: generation requests, prompt
 * tokens sent and evaluated (the rest came from a slot's prompt cache), tokens generated, loads, and
 * the time the slots were busy — in all and per slot — and the requests to the tokenizer endpoints. Times are the milliseconds really waited (with
 * `--time-scale`, the scaled ones).
 */

import type { Slot } from "./scheduler.ts";

export interface UsageCounts {
  /** Generation requests answered (a load request, with an empty prompt, is not one). */
  requests: number;
  /** Prompt tokens the requests carried (after any cut to the window). */
  promptTokensSent: number;
  /** Of those, the tokens evaluated: the rest were in the slot's cache. */
  promptTokensEvaluated: number;
  generatedTokens: number;
  /** Milliseconds a slot was held: loading, evaluating, generating, sending. */
  busyMs: number;
  /** Model loads waited for, and how long. */
  loads: number;
  loadMs: number;
}

export interface SlotStats extends UsageCounts {
  model: string;
  slot: number;
}

export interface StandinStatsReport extends UsageCounts {
  /** performance.now() ms since the stand-in started or its statistics were reset. */
  sinceMs: number;
  slots: SlotStats[];
  /** Requests to the tokenizer endpoints (`/tokenize`, `/apply-template`; 404s included), which no slot serves. */
  tokenizerRequests: number;
}

/** One request's share of the counts. */
export interface Served {
  promptTokens: number;
  evaluatedTokens: number;
  generatedTokens: number;
  busyMs: number;
  loadMs: number;
}

export class StandinStats {
  private perSlot = new Map<Slot, SlotStats>();
  private since = performance.now();
  private tokenizerRequests = 0;

  tokenized(): void {
    this.tokenizerRequests += 1;
  }

  served(slot: Slot, served: Served): void {
    const stats = this.of(slot);
    stats.requests += 1;
    add(stats, served);
  }

  /** A load request (an empty prompt): the slot's time and the load, no generation. */
  loaded(slot: Slot, loaded: { busyMs: number; loadMs: number }): void {
    add(this.of(slot), { promptTokens: 0, evaluatedTokens: 0, generatedTokens: 0, ...loaded });
  }

  report(): StandinStatsReport {
    const slots = [...this.perSlot.values()].sort((a, b) => a.model.localeCompare(b.model) || a.slot - b.slot);
    const total = emptyCounts();
    for (const slot of slots) {
      for (const key of Object.keys(total) as (keyof UsageCounts)[]) total[key] += slot[key];
    }
    return {
      ...total,
      sinceMs: performance.now() - this.since,
      slots: slots.map((slot) => ({ ...slot })),
      tokenizerRequests: this.tokenizerRequests,
    };
  }

  private of(slot: Slot): SlotStats {
    let stats = this.perSlot.get(slot);
    if (!stats) {
      stats = { model: slot.model, slot: slot.index, ...emptyCounts() };
      this.perSlot.set(slot, stats);
    }
    return stats;
  }

  reset(): void {
    this.perSlot = new Map();
    this.since = performance.now();
    this.tokenizerRequests = 0;
  }
}

function emptyCounts(): UsageCounts {
  return {
    requests: 0,
    promptTokensSent: 0,
    promptTokensEvaluated: 0,
    generatedTokens: 0,
    busyMs: 0,
    loads: 0,
    loadMs: 0,
  };
}

function add(counts: UsageCounts, served: Served): void {
  counts.promptTokensSent += served.promptTokens;
  counts.promptTokensEvaluated += served.evaluatedTokens;
  counts.generatedTokens += served.generatedTokens;
  counts.busyMs += served.busyMs;
  if (served.loadMs > 0) {
    counts.loads += 1;
    counts.loadMs += served.loadMs;
  }
}
