/** Suites under test: two items of the project's dataset, and a dataset folder with a suite beside them. */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "./bench-run.ts";

export const GITHUB_ITEM = readFileSync(join(REPO_ROOT, "datasets/github.jsonl"), "utf8")
  .split("\n")
  .find((line) => line.includes('"id":"gh-s002"'))!;
export const SLACK_ITEM = readFileSync(join(REPO_ROOT, "datasets/slack-notion.jsonl"), "utf8")
  .split("\n")
  .find((line) => line.includes('"id": "sl-s001"'))!;

/** A dataset folder of its own: the given items in d.jsonl, and the suite (when given) beside them. */
export function datasetFolder(lines: string[], suite?: string): string {
  const dir = mkdtempSync(join(tmpdir(), "onsetlab-suite-"));
  writeFileSync(join(dir, "d.jsonl"), `${lines.join("\n")}\n`);
  if (suite !== undefined) writeFileSync(join(dir, "suite.yaml"), suite);
  return dir;
}
