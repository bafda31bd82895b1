/**
 * The items a run uses: the dataset files, narrowed by `--filter key=v1|v2,key2=…` (category, server,
 * tag, difficulty, id), then `--limit N` (a sample over the categories, drawn with the run's seed) or
 * `--first N` (the first N in file order).
 */
import { createHash } from "node:crypto";
import { InputError } from "../../errors.ts";
import { loadRegistry, type Registry } from "../../mcp/registry.ts";
import { seededRandom, shuffled } from "../../random.ts";
import { DatasetError } from "./errors.ts";
import { unknownToolProblems } from "./known-tools.ts";
import { loadAll } from "./load.ts";
import { type ConversationItem, conversationSessionItem, type DatasetItem, turnAsItem } from "./types.ts";

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

/** How many of the filtered items a run takes: a sample over the categories, or the first N. */
export interface ItemCount {
  /** `--limit N`: N items, each category's share kept (at least one each when N allows), drawn with `seed`. */
  limit?: number;
  /** `--first N`: the first N in file order. */
  first?: number;
  seed: number;
}

/**
 * The run's items; a gold call to a tool no server of `registry` lists is bad input (known-tools.ts). A
 * dataset of conversations gives one item per conversation (`conversationSessionItem`: what its task
 * leases servers for, and what the filter reads) and the conversations themselves; a dataset that mixes
 * the two kinds is bad input (a run's records are of one kind).
 */
export function selectItems(
  paths: readonly string[],
  filter: ItemFilter,
  count: ItemCount,
  registry: Registry = loadRegistry(),
): ItemSelection {
  const loaded = loadAll(paths.length > 0 ? paths : undefined);
  if (loaded.conversations.length > 0 && loaded.items.length > 0) {
    const file = (entry: { file: string; line: number }) => `${entry.file}:${entry.line}`;
    throw new InputError(
      "BAD_FLAG",
      `--dataset mixes conversations (${file(loaded.conversations[0]!)}) and single-turn items (${file(loaded.items[0]!)}): run them apart`,
    );
  }
  const turns = loaded.conversations.flatMap(({ conversation, file, line }) =>
    conversation.turns.map((_, index) => ({ item: turnAsItem(conversation, index), file, line })),
  );
  const problems = unknownToolProblems([...loaded.items, ...turns], registry);
  if (problems.length > 0) throw new DatasetError("DATASET_UNKNOWN_TOOL", problems);
  const files = [...new Set([...loaded.items, ...loaded.conversations].map((entry) => entry.file))];
  if (loaded.conversations.length === 0) {
    return {
      items: narrowItems(
        loaded.items.map((entry) => entry.item),
        filter,
        count,
      ),
      files,
    };
  }
  const conversations = loaded.conversations.map((entry) => entry.conversation);
  const items = narrowItems(conversations.map(conversationSessionItem), filter, count);
  const chosen = new Set(items.map((item) => item.id));
  return { items, files, conversations: conversations.filter((conversation) => chosen.has(conversation.id)) };
}

export interface ItemSelection {
  items: DatasetItem[];
  files: string[];
  /** A dataset of conversations: those chosen, in the order of `items` (one item each). */
  conversations?: ConversationItem[];
}

/** The hash a run keeps of its dataset: of its conversations' lines when it has them. */
export function selectionHash(selection: Pick<ItemSelection, "items" | "conversations">): string {
  return datasetHash(selection.conversations ?? selection.items);
}

/** The items matching the filter, as many as `count` asks; none at all is bad input. */
export function narrowItems(items: readonly DatasetItem[], filter: ItemFilter, count: ItemCount): DatasetItem[] {
  if (items.length === 0) throw new InputError("EMPTY_DATASET", "the dataset has no items");
  if (count.limit !== undefined && count.first !== undefined) {
    throw new InputError(
      "BAD_FLAG",
      "--limit N (a sample over the categories) and --first N (file order): one or the other",
    );
  }
  const kept = items.filter((item) => matchesFilter(item, filter));
  if (kept.length === 0) {
    throw new InputError("EMPTY_SELECTION", `no dataset item matches --filter ${JSON.stringify(filter)}`);
  }
  if (count.first !== undefined) return kept.slice(0, count.first);
  return count.limit === undefined ? kept : stratifiedSample(kept, count.limit, count.seed);
}

/**
 * `size` items with every category in its share of `items` (largest remainders; one each first when
 * `size` allows, so a small sample still sees every category), the items of a category drawn at random
 * with `seed`, returned in file order.
 */
export function stratifiedSample(items: readonly DatasetItem[], size: number, seed: number): DatasetItem[] {
  if (size >= items.length) return [...items];
  const groups = new Map<string, number[]>();
  items.forEach((item, index) => {
    groups.set(item.category, [...(groups.get(item.category) ?? []), index]);
  });
  const strata = [...groups.values()];
  const floor = size >= strata.length ? 1 : 0;
  const rest = size - floor * strata.length;
  const spare = strata.reduce((sum, members) => sum + members.length - floor, 0);
  const exact = strata.map((members) => (rest * (members.length - floor)) / spare);
  const quota = exact.map((share) => floor + Math.floor(share));
  const byRemainder = exact
    .map((share, index) => ({ index, remainder: share - Math.floor(share) }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  let missing = size - quota.reduce((sum, n) => sum + n, 0);
  for (const { index } of byRemainder) {
    if (missing === 0) break;
    quota[index]! += 1;
    missing -= 1;
  }
  const random = seededRandom(seed);
  const chosen = strata.flatMap((members, index) => shuffled(members, random).slice(0, quota[index]));
  return chosen.sort((a, b) => a - b).map((index) => items[index]!);
}

/** A hash of the items a run uses (their full content, in order): a resume refuses a changed dataset. */
export function datasetHash(items: readonly (DatasetItem | ConversationItem)[]): string {
  const hash = createHash("sha256");
  for (const item of items) hash.update(`${JSON.stringify(item)}\n`);
  return hash.digest("hex").slice(0, 16);
}
