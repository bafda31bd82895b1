/**
 * Ollama's scheduler as a client meets it: each model serves `parallel` requests at once (the others
 * wait their turn); when more than `maxQueue` requests already wait, a new one gets 503 at once; a model
 * that is not loaded with the request's window is loaded first (`coldStartMs`), and the requests that
 * wait for the load report it as their `load_duration`.
 */

import { HttpProblem } from "./http-io.ts";
import { waitUntil } from "./pacing.ts";

/** Ollama's words when its queue is full. */
export const QUEUE_FULL_MESSAGE = "server busy, please try again.  maximum pending requests exceeded";

export interface SchedulerLimits {
  parallel: number | undefined;
  maxQueue: number | undefined;
  coldStartMs: number;
}

export class Scheduler {
  private readonly busy = new Map<string, number>();
  private readonly waiting: { model: string; start: () => void }[] = [];
  private readonly loading = new Map<string, Promise<void>>();

  constructor(private readonly limits: SchedulerLimits) {}

  /** Runs `serve` when the model has a free slot; 503 when the queue is full. */
  async run<T>(model: string, signal: AbortSignal, serve: () => Promise<T>): Promise<T> {
    await this.acquire(model, signal);
    try {
      return await serve();
    } finally {
      this.release(model);
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

  private async acquire(model: string, signal: AbortSignal): Promise<void> {
    const { parallel, maxQueue } = this.limits;
    if (parallel === undefined || (this.busy.get(model) ?? 0) < parallel) {
      this.busy.set(model, (this.busy.get(model) ?? 0) + 1);
      return;
    }
    if (maxQueue !== undefined && this.waiting.length >= maxQueue) throw new HttpProblem(503, QUEUE_FULL_MESSAGE);
    await new Promise<void>((resolve, reject) => {
      const entry = { model, start: resolve };
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

  /** The slot goes straight to the next request waiting for the same model. */
  private release(model: string): void {
    const next = this.waiting.findIndex((entry) => entry.model === model);
    if (next >= 0) {
      const [entry] = this.waiting.splice(next, 1);
      entry?.start();
      return;
    }
    this.busy.set(model, (this.busy.get(model) ?? 1) - 1);
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
