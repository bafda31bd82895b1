/**
 * Seeded randomness. Every draw comes from a stream seeded by a hash of (profile, seed, stage, prompt)
 * and a label, so the same request always gets the same answer, and adding a draw to one stream never
 * shifts another (the decision of a mistake and the details of how it looks are separate streams).
 */

/** A 32-bit string hash (cyrb53's mixing, low 32 bits). */
export function hash32(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 ^ h2) >>> 0;
}

/** mulberry32: the same seed gives the same sequence in [0, 1) on every platform. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
