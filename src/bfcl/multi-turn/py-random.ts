/**
 * Python's `random.Random(seed)` for an int seed: the Mersenne Twister seeded as CPython seeds it
 * (init_by_array over the seed's 32-bit words), with `randint` and `uniform` drawing exactly as
 * CPython 3.11 draws. The environments' ids (message ids, card ids, booking ids, access tokens)
 * and their random readings come from it, so BFCL's results repeat to the digit.
 */

const N = 624;
const M = 397;

export class PyRandom {
  private readonly mt = new Uint32Array(N);
  private index = N + 1;

  constructor(seed: number) {
    this.seedByArray(seedWords(seed));
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.index = N;
  }

  private seedByArray(key: readonly number[]): void {
    this.initGenrand(19650218);
    const mt = this.mt;
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(prev, 1664525)) + key[j]! + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  private next32(): number {
    const mt = this.mt;
    if (this.index >= N) {
      for (let k = 0; k < N; k++) {
        const y = (mt[k]! & 0x80000000) | (mt[(k + 1) % N]! & 0x7fffffff);
        mt[k] = mt[(k + M) % N]! ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** `random()`: 53 random bits in [0, 1). */
  random(): number {
    const a = this.next32() >>> 5;
    const b = this.next32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** `getrandbits(k)` for k ≤ 53: 32-bit words, least significant first, the last one shifted down. */
  private getrandbits(k: number): number {
    if (k <= 32) return this.next32() >>> (32 - k);
    let result = 0;
    let scale = 1;
    for (let left = k; left > 0; left -= 32) {
      let word = this.next32();
      if (left < 32) word >>>= 32 - left;
      result += word * scale;
      scale *= 2 ** 32;
    }
    return result;
  }

  /** `randint(a, b)`: a + _randbelow(b - a + 1), rejection-sampled on bit_length bits. */
  randint(a: number, b: number): number {
    const n = b - a + 1;
    const k = n.toString(2).length;
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return a + r;
  }

  /** `uniform(a, b)`: a + (b - a) * random(). */
  uniform(a: number, b: number): number {
    return a + (b - a) * this.random();
  }
}

/** CPython seeds with abs(seed) split into 32-bit words, least significant first ([0] for 0). */
function seedWords(seed: number): number[] {
  let n = BigInt(Math.abs(Math.trunc(seed)));
  if (n === 0n) return [0];
  const words: number[] = [];
  while (n > 0n) {
    words.push(Number(n & 0xffffffffn));
    n >>= 32n;
  }
  return words;
}
