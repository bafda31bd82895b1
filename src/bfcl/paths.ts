/**
 * Where BFCL's files are: the shared sample beside the repo by default (../shared/bfcl, DESIGN §10),
 * and the file names BFCL uses inside a data folder (`BFCL_v3_<category>.json`, JSON Lines).
 */
import { existsSync, readdirSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { REPO_ROOT } from "../paths.ts";

export const DEFAULT_BFCL_ROOT = resolve(REPO_ROOT, "..", "shared", "bfcl");
export const DEFAULT_BFCL_DATA_DIR = join(DEFAULT_BFCL_ROOT, "data");
/** BFCL v4's live and multi-turn categories (../shared/bfcl/v4: data, function docs, BFCL's Python). */
export const DEFAULT_BFCL_V4_ROOT = join(DEFAULT_BFCL_ROOT, "v4");
export const DEFAULT_BFCL_V4_DATA_DIR = join(DEFAULT_BFCL_V4_ROOT, "data");

/** Recorded model outputs, one folder per model. */
export const DEFAULT_BFCL_RESULT_DIR = join(DEFAULT_BFCL_ROOT, "result");

/**
 * The folders a category is looked for in: the given data folder, and with the default one also
 * BFCL v4's (its live categories). A v3 file name wins over a v4 one in the same folder.
 */
function searchDirs(dataDir: string): string[] {
  return resolve(dataDir) === DEFAULT_BFCL_DATA_DIR ? [DEFAULT_BFCL_DATA_DIR, DEFAULT_BFCL_V4_DATA_DIR] : [dataDir];
}

export function questionsFile(dataDir: string, category: string): string {
  for (const dir of searchDirs(dataDir))
    for (const version of ["v3", "v4"]) {
      const file = join(dir, `BFCL_${version}_${category}.json`);
      if (existsSync(file)) return file;
    }
  return join(dataDir, `BFCL_v3_${category}.json`);
}

/** Beside the questions file: possible_answer/ with the same name. */
export function answersFile(dataDir: string, category: string): string {
  const questions = questionsFile(dataDir, category);
  return join(dirname(questions), "possible_answer", basename(questions));
}

/** Question files of single-turn categories (v3's, and v4's live ones; v4 multi-turn has its own reader). */
const QUESTION_FILE = /^BFCL_v[34]_((?!multi_turn)[a-z_]+)\.json$/;

/** The single-turn categories a data folder (with the default one: also v4's) has questions for, sorted. */
export function categoriesIn(dataDir: string): string[] {
  const found = new Set<string>();
  for (const dir of searchDirs(dataDir)) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const category = QUESTION_FILE.exec(name)?.[1];
      if (category) found.add(category);
    }
  }
  return [...found].sort();
}

/** irrelevance (and live_relevance) have no possible answers: the verdict is about calling at all. */
export function hasAnswers(category: string): boolean {
  return !category.includes("relevance");
}

export function v4QuestionsFile(dataDir: string, category: string): string {
  return join(dataDir, `BFCL_v4_${category}.json`);
}

export function v4AnswersFile(dataDir: string, category: string): string {
  return join(dataDir, "possible_answer", `BFCL_v4_${category}.json`);
}
