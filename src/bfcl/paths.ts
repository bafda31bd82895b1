/**
 * Where BFCL's files are: the shared sample beside the repo by default (../shared/bfcl, DESIGN §10),
 * and the file names BFCL uses inside a data folder (`BFCL_v3_<category>.json`, JSON Lines).
 */
import { join, resolve } from "node:path";
import { REPO_ROOT } from "../paths.ts";

export const DEFAULT_BFCL_ROOT = resolve(REPO_ROOT, "..", "shared", "bfcl");
export const DEFAULT_BFCL_DATA_DIR = join(DEFAULT_BFCL_ROOT, "data");
/** Recorded model outputs, one folder per model. */
export const DEFAULT_BFCL_RESULT_DIR = join(DEFAULT_BFCL_ROOT, "result");

export function questionsFile(dataDir: string, category: string): string {
  return join(dataDir, `BFCL_v3_${category}.json`);
}

export function answersFile(dataDir: string, category: string): string {
  return join(dataDir, "possible_answer", `BFCL_v3_${category}.json`);
}

/** irrelevance (and live_relevance) have no possible answers: the verdict is about calling at all. */
export function hasAnswers(category: string): boolean {
  return !category.includes("relevance");
}

/** BFCL v4's live and multi-turn categories (../shared/bfcl/v4: data, function docs, BFCL's Python). */
export const DEFAULT_BFCL_V4_ROOT = join(DEFAULT_BFCL_ROOT, "v4");
export const DEFAULT_BFCL_V4_DATA_DIR = join(DEFAULT_BFCL_V4_ROOT, "data");

export function v4QuestionsFile(dataDir: string, category: string): string {
  return join(dataDir, `BFCL_v4_${category}.json`);
}

export function v4AnswersFile(dataDir: string, category: string): string {
  return join(dataDir, "possible_answer", `BFCL_v4_${category}.json`);
}
