/**
 * BFCL categories as bench datasets: `bfcl:simple` or `bfcl:simple,multiple` → dataset items built
 * on the fly from the BFCL data folder (the files on disk are the source; `bfcl import` writes the
 * same items out for people and other tools). Each item's function docs are found again by its
 * `bfcl:<category>` tag and id, so the bench can serve them (host.ts).
 */
import type { DatasetItem } from "../bench/dataset/types.ts";
import { availableCategories, loadCategory } from "./catalog.ts";
import { BfclInputError } from "./errors.ts";
import { BFCL_TAG_PREFIX, bfclQuestionToItem } from "./import.ts";
import { DEFAULT_BFCL_DATA_DIR } from "./paths.ts";
import type { BfclQuestion } from "./types.ts";

export interface BfclDataOptions {
  /** BFCL data folder (questions + possible_answer/); default ../shared/bfcl/data. */
  readonly dataDir?: string;
}

const SPEC_PREFIX = "bfcl:";

/** `bfcl:simple,multiple` → ["simple", "multiple"]; an unknown category is an InputError naming it. */
export function parseBfclSpec(spec: string, dataDir: string = DEFAULT_BFCL_DATA_DIR): string[] {
  if (!spec.startsWith(SPEC_PREFIX)) {
    throw new BfclInputError("BFCL_BAD_SPEC", `a BFCL dataset is "bfcl:<category>[,<category>…]", not "${spec}"`, {
      context: { spec },
    });
  }
  const categories = spec
    .slice(SPEC_PREFIX.length)
    .split(",")
    .map((c) => c.trim());
  return checkCategories(categories, dataDir, `"${spec}"`);
}

/** Each category must have a question file in `dataDir`; `where` names the flag or spec for the message. */
export function checkCategories(categories: readonly string[], dataDir: string, where: string): string[] {
  if (categories.length === 0 || categories.some((c) => c === "")) {
    throw new BfclInputError("BFCL_BAD_SPEC", `${where}: name at least one category, comma-separated`, {
      context: { categories },
    });
  }
  const available = availableCategories(dataDir);
  for (const category of categories) {
    if (!available.includes(category)) {
      throw new BfclInputError(
        "BFCL_UNKNOWN_CATEGORY",
        `unknown BFCL category "${category}" in ${where} (available in ${dataDir}: ${available.join(", ") || "none"})`,
        { context: { category, dataDir } },
      );
    }
  }
  return [...new Set(categories)];
}

/** The dataset items of one category, in file order. */
export function bfclCategoryItems(category: string, dataDir: string = DEFAULT_BFCL_DATA_DIR): DatasetItem[] {
  const data = loadCategory(dataDir, category);
  return [...data.questions.values()].map((question) =>
    bfclQuestionToItem(category, question, data.answers.get(question.id) ?? []),
  );
}

export function loadBfclDataset(spec: string, options: BfclDataOptions = {}): { items: DatasetItem[] } {
  const dataDir = options.dataDir ?? DEFAULT_BFCL_DATA_DIR;
  return { items: parseBfclSpec(spec, dataDir).flatMap((category) => bfclCategoryItems(category, dataDir)) };
}

/** The BFCL question an item was imported from (its function docs), found by its category tag and id. */
export function questionOfItem(item: DatasetItem, options: BfclDataOptions = {}): BfclQuestion {
  const tag = item.tags.find((t) => t.startsWith(BFCL_TAG_PREFIX));
  if (tag === undefined) {
    throw new BfclInputError("BFCL_NOT_AN_ITEM", `item ${item.id} has no "${BFCL_TAG_PREFIX}<category>" tag`, {
      context: { id: item.id },
    });
  }
  const category = tag.slice(BFCL_TAG_PREFIX.length);
  const question = loadCategory(options.dataDir ?? DEFAULT_BFCL_DATA_DIR, category).questions.get(item.id);
  if (!question) {
    throw new BfclInputError("BFCL_UNKNOWN_ID", `no BFCL question ${item.id} in category ${category}`, {
      context: { id: item.id, category },
    });
  }
  return question;
}
