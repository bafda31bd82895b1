/**
 * A record's content, as opposed to when it ran and how long it took: two runs of the same matrix
 * with the same seed (on the simulator) must agree on the content exactly, and `results merge` calls
 * two records of one key the same when their contents are equal.
 *
 * Timing fields, removed at any depth:
 * - every key ending in `Ms`: `taskMs`, `startMs`, `durationMs`, `totalMs`, `modelMs`, `toolsMs`,
 *   `overheadMs`, `modelCallMs` … (this also drops the time limits in `config.limits`, which are
 *   equal across runs of one matrix anyway: run.json keeps them);
 * - `startedAt` (epoch ms), `timings` (the agent's and each model call's), `latency` (the latency score).
 */
import { createHash } from "node:crypto";
import { canonicalJson } from "../../json.ts";

export const TIMING_KEYS: ReadonlySet<string> = new Set(["startedAt", "timings", "latency"]);

export function isTimingKey(key: string): boolean {
  return key.endsWith("Ms") || TIMING_KEYS.has(key);
}

/** A deep copy of `value` without its timing fields. */
export function withoutTiming(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTiming);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !isTimingKey(key))
        .map(([key, item]) => [key, withoutTiming(item)]),
    );
  }
  return value;
}

/** A short hash of the content: equal for records that differ only in timing. */
export function contentHash(record: unknown): string {
  return createHash("sha256")
    .update(canonicalJson(withoutTiming(record)))
    .digest("hex")
    .slice(0, 16);
}
