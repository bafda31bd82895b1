/** A cached value, computed on first use: for per-object facts (a tool's words, its prompt line) asked again and again. */
export function cached<K, V>(
  cache: { get(key: K): V | undefined; set(key: K, value: V): unknown },
  key: K,
  make: () => V,
): V {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    cache.set(key, value);
  }
  return value;
}

/**
 * A memo table for pure computations that forgets its oldest entry once it holds `limit` entries, so a
 * long session (100k runs in one process) cannot grow it without bound. Only for values that depend on
 * the key alone: nothing here is ever invalidated.
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, V>();

  /** `limit`: the most entries held at once (at least 1). */
  constructor(readonly limit: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value cached for `key`, or `compute(key)` stored first (a throw stores nothing). */
  get(key: K, compute: (key: K) => V): V {
    const hit = this.entries.get(key);
    if (hit !== undefined || this.entries.has(key)) return hit as V;
    const value = compute(key);
    if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, value);
    return value;
  }
}

/** An async value fetched once and shared; a failure is not kept, so the next call tries again. */
export function onceUntilFailure<T>(fetch: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= fetch().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
