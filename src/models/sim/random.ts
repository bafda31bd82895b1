/**
 * Seeded randomness. Every draw comes from a stream seeded by a hash of (profile, seed, stage, prompt)
 * (seed.ts) and a label, so the same request always gets the same answer, and adding a draw to one
 * stream never shifts another (the decision of a mistake and the details of how it looks are separate
 * streams).
 */

import { HASH_START, type HashState, hash32, hashDigest, hashUpdate, seededRandom } from "../../random.ts";

export { HASH_START, type HashState, hash32, hashDigest, hashUpdate, seededRandom };

export type Random = () => number;

/** Independent streams of one request, by label. */
export class DrawStreams {
  /** @param base the request's seed hash (requestSeed in seed.ts). */
  constructor(private readonly base: number) {}

  stream(label: string): Random {
    return seededRandom(hash32(`${this.base}\u0000${label}`));
  }
}

/** One element, uniformly; undefined for an empty list. */
export function pick<T>(random: Random, items: readonly T[]): T | undefined {
  return items.length === 0 ? undefined : items[Math.floor(random() * items.length)];
}
