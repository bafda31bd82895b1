/**
 * Seeded randomness. Every draw comes from a stream seeded by a hash of (profile, seed, stage, prompt)
 * and a label, so the same request always gets the same answer, and adding a draw to one stream never
 * shifts another (the decision of a mistake and the details of how it looks are separate streams).
 */

import { hash32, seededRandom } from "../../random.ts";

export { hash32, seededRandom };

export type Random = () => number;

/** Independent streams of one request, by label. */
export class DrawStreams {
  private readonly base: number;

  constructor(parts: readonly (string | number)[]) {
    this.base = hash32(parts.join("\u0000"));
  }

  stream(label: string): Random {
    return seededRandom(hash32(`${this.base}\u0000${label}`));
  }
}

/** One element, uniformly; undefined for an empty list. */
export function pick<T>(random: Random, items: readonly T[]): T | undefined {
  return items.length === 0 ? undefined : items[Math.floor(random() * items.length)];
}
