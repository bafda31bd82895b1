/**
 * Finds near-duplicate queries (templated clones) by token Jaccard similarity: |A ∩ B| / |A ∪ B| over
 * the sets of lowercase word tokens. Two queries that differ only in a name or a number score high.
 */
import type { LoadedItem } from "./types.ts";

export interface NearDuplicate {
  a: string;
  b: string;
  similarity: number;
}

export const NEAR_DUPLICATE_THRESHOLD = 0.8;

export function queryTokens(query: string): Set<string> {
  return new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const token of a) if (b.has(token)) shared++;
  return shared / (a.size + b.size - shared);
}

export function findNearDuplicates(
  items: readonly LoadedItem[],
  threshold: number = NEAR_DUPLICATE_THRESHOLD,
): NearDuplicate[] {
  const tokens = items.map((loaded) => queryTokens(loaded.item.query));
  const found: NearDuplicate[] = [];
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const a = tokens[i]!;
      const b = tokens[j]!;
      // Jaccard ≤ min/max of the sizes: skip pairs that cannot reach the threshold.
      if (Math.min(a.size, b.size) < threshold * Math.max(a.size, b.size)) continue;
      const similarity = jaccard(a, b);
      if (similarity >= threshold) {
        found.push({ a: items[i]!.item.id, b: items[j]!.item.id, similarity: Math.round(similarity * 1000) / 1000 });
      }
    }
  }
  return found;
}
