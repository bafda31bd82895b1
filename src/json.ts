/** Small JSON helpers shared by every layer: requests, cassette keys, wire bodies and comparisons without `undefined`. */

/** Leaves absent fields out, so requests, cassettes and comparisons never carry `undefined`. */
export function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;
}

/**
 * JSON with object keys sorted at every level and `undefined` fields left out: equal values give equal
 * text whatever order their keys were built in (the cassette's request key hashes this).
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined && typeof item !== "function")
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
