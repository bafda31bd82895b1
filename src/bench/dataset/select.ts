/**
 * The items a run uses: the dataset files, narrowed by `--filter key=v1|v2,key2=…` (category, server,
 * tag, difficulty, id) and `--limit N` (the first N after filtering, in file order).
 */
import { createHash } from "node:crypto";
import { InputError } from "../../errors.ts";
import { loadRegistry, type Registry } from "../../mcp/registry.ts";
import { DatasetError } from "./errors.ts";
import { unknownToolProblems } from "./known-tools.ts";
import { loadDataset } from "./load.ts";
import type { DatasetItem } from "./types.ts";

export const FILTER_KEYS = ["category", "server", "tag", "difficulty", "id"] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];
export type ItemFilter = Partial<Record<FilterKey, string[]>>;

/** `category=single|parallel,server=github` → { category: [single, parallel], server: [github] }. */
export function parseFilter(text: string): ItemFilter {
  const filter: ItemFilter = {};
  for (const part of text
    .split(",")
    .map((piece) => piece.trim())
    .filter(Boolean)) {
    const [key, values] = part.split("=", 2);
    if (!values || !(FILTER_KEYS as readonly string[]).includes(key ?? "")) {
      throw new InputError(
        "BAD_FLAG",
        `--filter: "${part}" is not key=value with key one of ${FILTER_KEYS.join(", ")} (e.g. category=single|parallel,server=github)`,
      );
    }
    filter[key as FilterKey] = values.split("|").map((value) => value.trim());
  }
  return filter;
}

export function matchesFilter(item: DatasetItem, filter: ItemFilter): boolean {
  const fields: Record<FilterKey, readonly string[]> = {
    category: [item.category],
    server: item.servers,
    tag: item.tags,
    difficulty: [item.difficulty],
    id: [item.id],
  };
  return Object.entries(filter).every(([key, wanted]) =>
    fields[key as FilterKey].some((value) => (wanted as string[]).includes(value)),
  );
}

/** The run's items; a gold call to a tool no server of `registry` lists is bad input (known-tools.ts). */
export function selectItems(
  paths: readonly string[],
  filter: ItemFilter,
  limit?: number,
  registry: Registry = loadRegistry(),
): { items: DatasetItem[]; files: string[] } {
  const loaded = loadDataset(paths.length > 0 ? paths : undefined);
  const problems = unknownToolProblems(loaded, registry);
  if (problems.length > 0) throw new DatasetError("DATASET_UNKNOWN_TOOL", problems);
  const files = [...new Set(loaded.map((entry) => entry.file))];
  return {
    items: narrowItems(
      loaded.map((entry) => entry.item),
      filter,
      limit,
    ),
    files,
  };
}

/** The items matching the filter, the first `limit` of them; none at all is bad input. */
export function narrowItems(items: readonly DatasetItem[], filter: ItemFilter, limit?: number): DatasetItem[] {
  if (items.length === 0) throw new InputError("EMPTY_DATASET", "the dataset has no items");
  const kept = items.filter((item) => matchesFilter(item, filter));
  if (kept.length === 0) {
    throw new InputError("EMPTY_SELECTION", `no dataset item matches --filter ${JSON.stringify(filter)}`);
  }
  return limit === undefined ? kept : kept.slice(0, limit);
}

/** A hash of the items a run uses (their full content, in order): a resume refuses a changed dataset. */
export function datasetHash(items: readonly DatasetItem[]): string {
  const hash = createHash("sha256");
  for (const item of items) hash.update(`${JSON.stringify(item)}\n`);
  return hash.digest("hex").slice(0, 16);
}
