/** The answer check of an item (DESIGN §7): every given part must hold, case-insensitively. */
import { datasetRegex } from "./regex.ts";
import type { AnswerCheck } from "./types.ts";

export interface AnswerCheckResult {
  pass: boolean;
  /** What failed, e.g. `missing "Login fails"`; empty when it passed. */
  failures: string[];
}

export function checkAnswer(check: AnswerCheck, text: string): AnswerCheckResult {
  const haystack = text.toLowerCase();
  const has = (needle: string) => haystack.includes(needle.toLowerCase());
  const failures: string[] = [];
  for (const needle of check.contains ?? []) if (!has(needle)) failures.push(`missing "${needle}"`);
  if (check.anyOf && !check.anyOf.some(has)) failures.push(`none of ${check.anyOf.map((n) => `"${n}"`).join(", ")}`);
  for (const needle of check.notContains ?? []) if (has(needle)) failures.push(`contains "${needle}"`);
  if (check.regex !== undefined && !datasetRegex(check.regex).test(text))
    failures.push(`no match for /${check.regex}/i`);
  return { pass: failures.length === 0, failures };
}
