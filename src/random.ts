/**
 * Seeded randomness shared by the mock servers' fault injection, the simulator and the bench's
 * bootstrap: the same seed gives the same sequence on every platform, so every run repeats exactly.
 */

/** mulberry32: a small seeded PRNG with values in [0, 1). */
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

/** A 32-bit string hash (cyrb53's mixing, low 32 bits): a seed from text. */
export function hash32(text: string): number {
  return hashDigest(hashUpdate(HASH_START, text));
}

/**
 * hash32's running state, for text read in pieces: hash32(a + b) === hashDigest(hashUpdate(hashUpdate(HASH_START,
 * a), b)), so the state after a piece that repeats can be kept instead of hashing the piece again.
 */
export interface HashState {
  readonly h1: number;
  readonly h2: number;
}

export const HASH_START: HashState = { h1: 0xdeadbeef, h2: 0x41c6ce57 };

export function hashUpdate(state: HashState, text: string): HashState {
  let { h1, h2 } = state;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  return { h1, h2 };
}

export function hashDigest(state: HashState): number {
  let { h1, h2 } = state;
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 ^ h2) >>> 0;
}

/** Fisher–Yates with the given random source. */
export function shuffled<T>(values: readonly T[], random: () => number): T[] {
  const out = [...values];
  for (let index = out.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [out[index], out[other]] = [out[other]!, out[index]!];
  }
  return out;
}
