/**
 * The dataset items whose queries share the most words with a free query: what `agent` offers when the
 * simulator, which answers dataset queries only, is given a query of no item.
 */
import type { DatasetItem } from "./types.ts";

/** Lower-case words of three letters or more (short ones — a, of, me — match everything). */
function words(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter(Boolean));
}

/** Up to `count` items sharing at least one word with `query`, most shared words first (ties: file order). */
export function closeItems(items: readonly DatasetItem[], query: string, count = 3): DatasetItem[] {
  const asked = words(query);
  return items
    .map((item, index) => ({ item, index, shared: [...words(item.query)].filter((word) => asked.has(word)).length }))
    .filter((candidate) => candidate.shared > 0)
    .sort((a, b) => b.shared - a.shared || a.index - b.index)
    .slice(0, count)
    .map((candidate) => candidate.item);
}
