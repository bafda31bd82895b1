/**
 * Ollama's scheduler as a client meets it: each model has `parallel` slots (the others wait their turn,
 * first come first served); when more than `maxQueue` requests already wait, a new one gets 503 at once;
 * a model that is not loaded with the request's window is loaded first (`coldStartMs`), and the requests
 * that wait for the load report it as their `load_duration`.
 *
 * Each slot keeps what its last request left in the KV cache (prompt and answer): a request goes to the
 * free slot whose cache shares the longest prefix with its prompt, and only the rest of the prompt is
 * evaluated — as llama.cpp's server and Ollama reuse a slot's cache. A reload empties the model's slots.
 */

import { sharedPrefixChars } from "../../src/models/prompt-size.ts";
import { HttpProblem } from "./http-io.ts";
import { waitUntil } from "./pacing.ts";

/** Ollama's words when its queue is full. */
export const QUEUE_FULL_MESSAGE = "server busy, please try again.  maximum pending requests exceeded";

export interface SchedulerLimits {
  parallel: number | undefined;
  maxQueue: number | undefined;
  coldStartMs: number;
}

/** One slot of a model: its number and what its cache holds. */
export interface Slot {
  model: string;
  index: number;
  /** The text in the slot's KV cache: its last request's prompt and answer. */
  cached: string;
}

interface Waiting {
  model: string;
  prompt: string;
  start: (slot: Slot) => void;
}

export class Scheduler {
  private readonly slots = new Map<string, Slot[]>();
  private readonly busy = new Set<Slot>();
  private readonly waiting: Waiting[] = [];
  private readonly loading = new Map<string, Promise<void>>();

  constructor(private readonly limits: SchedulerLimits) {}

  /** Runs `serve` on a free slot of the model (the one whose cache shares the most with `prompt`); 503 when the queue is full. */
  async run<T>(model: string, prompt: string, signal: AbortSignal, serve: (slot: Slot) => Promise<T>): Promise<T> {
    const slot = await this.acquire(model, prompt, signal);
    try {
      return await serve(slot);
    } finally {
      this.release(slot);
    }
  }

  /**
   * Loads a model with a window (`key`) unless `loaded`, sharing one load between the requests that need
   * it; returns the milliseconds this request waited for it.
   */
  async load(key: string, loaded: boolean, signal: AbortSignal): Promise<number> {
    if (this.limits.coldStartMs <= 0) return 0;
    // read before the load is started, so the request that starts it waits the whole cold start
    const started = performance.now();
    let pending = this.loading.get(key);
    if (!pending) {
      if (loaded) return 0;
      // Shared by every request waiting for this load, so no one request's signal stops it.
      const never = new AbortController().signal;
      pending = waitUntil(started + this.limits.coldStartMs, never).finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    await Promise.race([pending, aborted(signal)]);
    return performance.now() - started;
  }

  /** The model left memory (or is reloaded): its slots' caches are gone. */
  forget(model: string): void {
    for (const slot of this.slots.get(model) ?? []) slot.cached = "";
  }

  private async acquire(model: string, prompt: string, signal: AbortSignal): Promise<Slot> {
    const free = this.freeSlot(model, prompt);
    if (free) {
      this.busy.add(free);
      return free;
    }
    const { maxQueue } = this.limits;
    if (maxQueue !== undefined && this.waiting.length >= maxQueue) throw new HttpProblem(503, QUEUE_FULL_MESSAGE);
    return new Promise<Slot>((resolve, reject) => {
      const entry: Waiting = { model, prompt, start: resolve };
      this.waiting.push(entry);
      signal.addEventListener(
        "abort",
        () => {
          const at = this.waiting.indexOf(entry);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }

  /** The free slot sharing the longest prefix with the prompt; a new one while the model has fewer than `parallel`. */
  private freeSlot(model: string, prompt: string): Slot | undefined {
    const slots = this.slots.get(model) ?? [];
    this.slots.set(model, slots);
    let best: Slot | undefined;
    let bestShared = -1;
    for (const slot of slots) {
      if (this.busy.has(slot)) continue;
      const shared = sharedPrefixChars(slot.cached, prompt);
      if (shared > bestShared) [best, bestShared] = [slot, shared];
    }
    const { parallel } = this.limits;
    // without a limit a slot is made only when none is free; under it, also rather than spoil a free
    // slot's cache with a prompt it shares nothing with
    const room = parallel === undefined ? !best : slots.length < parallel && bestShared <= 0;
    if (!room) return best;
    const slot: Slot = { model, index: slots.length, cached: "" };
    slots.push(slot);
    return slot;
  }

  /** The slot goes straight to the next request waiting for the same model. */
  private release(slot: Slot): void {
    const next = this.waiting.findIndex((entry) => entry.model === slot.model);
    if (next >= 0) {
      const [entry] = this.waiting.splice(next, 1);
      entry?.start(slot);
      return;
    }
    this.busy.delete(slot);
  }
}

/** Rejects when the signal fires; handled, so a late abort is no unhandled rejection. */
function aborted(signal: AbortSignal): Promise<never> {
  const promise = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
  promise.catch(() => {});
  return promise;
}
