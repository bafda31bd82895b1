/**
 * One stored answer of the request cache as bytes: the sha256 of its key and payload, then the payload
 * (the answer as JSON). A read checks the digest before anything is parsed, so a damaged page, a torn
 * value or an answer moved under another key reads as damaged, never as an answer: nothing from a
 * damaged store is ever scored.
 */
import { createHash } from "node:crypto";
import type { CachedAnswer } from "./request-cache.ts";

/**
 * Whether the stored bytes are the ones written under `key`. Self-contained (no imports: `hash` is
 * node:crypto's createHash), because the store check (cache-check.ts) runs its source in a child process.
 */
export function isWholeEntry(key: string, value: Uint8Array, hash: typeof createHash): boolean {
  const digestBytes = 32;
  if (value.length < digestBytes) return false;
  const digest = hash("sha256").update(key).update("\u0000").update(value.subarray(digestBytes)).digest();
  return Buffer.compare(digest, value.subarray(0, digestBytes)) === 0;
}

export function encodeEntry(key: string, answer: CachedAnswer): Buffer {
  const payload = Buffer.from(JSON.stringify(answer));
  const digest = createHash("sha256").update(key).update("\u0000").update(payload).digest();
  return Buffer.concat([digest, payload]);
}

/** The answer stored under `key`, or "damaged" when the bytes fail their digest or are not an answer. */
export function decodeEntry(key: string, value: Uint8Array): CachedAnswer | "damaged" {
  try {
    if (!isWholeEntry(key, value, createHash)) return "damaged";
    const answer = JSON.parse(Buffer.from(value.subarray(32)).toString("utf8")) as CachedAnswer;
    const whole =
      typeof answer === "object" &&
      answer !== null &&
      typeof answer.model === "string" &&
      typeof answer.response === "object" &&
      answer.response !== null &&
      typeof answer.response.text === "string" &&
      typeof answer.durationMs === "number";
    return whole ? answer : "damaged";
  } catch {
    return "damaged";
  }
}
