/**
 * A BFCL data folder as a catalog: which categories it holds, and each category's questions and
 * possible answers. Files are read once per process (several result folders, the importer and every
 * in-process server share them); a file that changed on disk is read again.
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { loadPossibleAnswers, loadQuestions } from "./data.ts";
import { BfclInputError } from "./errors.ts";
import { answersFile, categoriesIn, hasAnswers, questionsFile } from "./paths.ts";
import type { BfclQuestion, ExpectedCall } from "./types.ts";

export interface CategoryData {
  readonly category: string;
  /** In file order. */
  readonly questions: ReadonlyMap<string, BfclQuestion>;
  /** Empty for categories without possible answers (irrelevance). */
  readonly answers: ReadonlyMap<string, readonly ExpectedCall[]>;
}

const cache = new Map<string, { stamp: string; value: unknown }>();

/** Reads `file` with `load`, or returns the copy read before if the file has not changed since. */
function cached<T>(file: string, load: (file: string) => T): T {
  const stat = statSync(file);
  const stamp = `${stat.mtimeMs}:${stat.size}`;
  const hit = cache.get(file);
  if (hit?.stamp === stamp) return hit.value as T;
  const value = load(file);
  cache.set(file, { stamp, value });
  return value;
}

export function requireDataDir(dataDir: string): void {
  if (!existsSync(dataDir) || !statSync(dataDir).isDirectory()) {
    throw new BfclInputError("BFCL_MISSING_DIR", `BFCL data folder not found: ${dataDir}`, {
      context: { dir: dataDir },
    });
  }
}

/** The categories a data folder has questions for, sorted. */
export function availableCategories(dataDir: string): string[] {
  requireDataDir(dataDir);
  return categoriesIn(dataDir);
}

export function loadCategory(dataDir: string, category: string): CategoryData {
  const dir = resolve(dataDir);
  const qFile = questionsFile(dir, category);
  if (!existsSync(qFile)) {
    requireDataDir(dir);
    throw new BfclInputError(
      "BFCL_UNKNOWN_CATEGORY",
      `no BFCL category "${category}" in ${dir} (available: ${availableCategories(dir).join(", ") || "none"})`,
      { context: { category, dataDir: dir } },
    );
  }
  const questions = cached(qFile, (file) => new Map(loadQuestions(file).map((q) => [q.id, q])));
  if (!hasAnswers(category)) return { category, questions, answers: new Map() };
  const aFile = answersFile(dir, category);
  if (!existsSync(aFile)) {
    throw new BfclInputError("BFCL_MISSING_FILE", `possible answers for ${category} not found: ${aFile}`, {
      context: { file: aFile, category },
    });
  }
  return { category, questions, answers: cached(aFile, loadPossibleAnswers) };
}
