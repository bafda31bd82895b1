/** Deterministic stand-ins for Tavily's per-request metadata (request_id, response_time). */

/** FNV-1a over a string with a seed: a small, stable hash. */
function fnv1a(text: string, seed: number): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** A UUID-shaped id derived from the request, so the same call always gets the same id. */
export function requestIdFor(tool: string, args: Record<string, unknown>): string {
  const text = `${tool}:${JSON.stringify(args)}`;
  const hex = [0, 1, 2, 3].map((seed) => fnv1a(text, seed).toString(16).padStart(8, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Seconds, rounded like Tavily's response_time. */
export function responseTime(seconds: number): number {
  return Math.round(seconds * 100) / 100;
}
