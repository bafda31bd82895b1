/**
 * `bfcl import`: BFCL categories → dataset files in the project's format. Per category,
 * `bfcl_<category>.jsonl` (one DatasetItem a line, as datasets/schema.json wants) and
 * `bfcl_<category>.tools.json` (item id → its MCP tool definitions: each question has its own
 * functions, and names repeat across questions with different docs, so tools are kept per item).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Difficulty } from "../bench/dataset/types.ts";
import { loadCategory } from "./catalog.ts";
import { bfclCategoryItems } from "./dataset.ts";
import { bfclFunctionToTool } from "./import.ts";

export interface ImportOptions {
  readonly dataDir: string;
  readonly categories: readonly string[];
  readonly outDir: string;
}

export interface ImportedCategory {
  readonly category: string;
  readonly itemsFile: string;
  readonly toolsFile: string;
  readonly items: number;
  readonly difficulty: Readonly<Record<Difficulty, number>>;
}

export function writeBfclDataset(options: ImportOptions): ImportedCategory[] {
  mkdirSync(options.outDir, { recursive: true });
  return options.categories.map((category) => {
    const items = bfclCategoryItems(category, options.dataDir);
    const { questions } = loadCategory(options.dataDir, category);
    const itemsFile = join(options.outDir, `bfcl_${category}.jsonl`);
    const toolsFile = join(options.outDir, `bfcl_${category}.tools.json`);
    writeFileSync(itemsFile, items.map((item) => `${JSON.stringify(item)}\n`).join(""));
    // One item per line keeps the file readable and its diffs small.
    const toolLines = items.map(
      (item) =>
        `${JSON.stringify(item.id)}: ${JSON.stringify(questions.get(item.id)!.function.map(bfclFunctionToTool))}`,
    );
    writeFileSync(toolsFile, `{\n${toolLines.join(",\n")}\n}\n`);
    const difficulty = { easy: 0, medium: 0, hard: 0 };
    for (const item of items) difficulty[item.difficulty]++;
    return { category, itemsFile, toolsFile, items: items.length, difficulty };
  });
}
