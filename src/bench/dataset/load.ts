/**
 * Loads datasets/*.jsonl: every line is validated against datasets/schema.json and ids must be unique
 * across files. Nothing is returned from an invalid dataset: all problems are collected (file:line and
 * reason) and thrown together, so one run of the check shows every defect.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { REPO_ROOT } from "../../paths.ts";
import { DatasetError, type DatasetProblem } from "./errors.ts";
import type { ConversationItem, DatasetItem, LoadedConversation, LoadedItem } from "./types.ts";

export const DATASETS_DIR = join(REPO_ROOT, "datasets");
export const DATASET_SCHEMA_FILE = join(DATASETS_DIR, "schema.json");

let compiled: ValidateFunction | undefined;

function itemValidator(): ValidateFunction {
  if (!compiled) {
    // verbose: errors carry the rejected value, so a message can show it
    const ajv = new Ajv({ allErrors: true, verbose: true });
    compiled = ajv.compile(JSON.parse(readFileSync(DATASET_SCHEMA_FILE, "utf8")));
  }
  return compiled;
}

/**
 * Resolves dataset arguments to files: a .jsonl file, a folder (its *.jsonl files), or a pattern whose
 * file name part has `*` wildcards (`datasets/git*.jsonl`). Default: datasets/*.jsonl.
 */
export function resolveDatasetFiles(paths: string | readonly string[] = [DATASETS_DIR]): string[] {
  const files = new Set<string>();
  for (const path of typeof paths === "string" ? [paths] : paths) {
    for (const file of expand(path)) files.add(file);
  }
  return [...files];
}

function expand(path: string): string[] {
  const absolute = resolve(path);
  if (basename(absolute).includes("*")) {
    const dir = dirname(absolute);
    const pattern = new RegExp(`^${basename(absolute).split("*").map(escapeRegExp).join(".*")}$`);
    const matches = existsSync(dir) ? jsonlIn(dir).filter((file) => pattern.test(basename(file))) : [];
    if (matches.length === 0) throw unreadable(path, "no dataset file matches this pattern");
    return matches;
  }
  if (!existsSync(absolute)) throw unreadable(path, "no such file or folder");
  if (statSync(absolute).isDirectory()) {
    const files = jsonlIn(absolute);
    if (files.length === 0) throw unreadable(path, "the folder holds no .jsonl file");
    return files;
  }
  return [absolute];
}

function jsonlIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".jsonl"))
    .sort()
    .map((name) => join(dir, name));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
}

function unreadable(path: string, reason: string): DatasetError {
  return new DatasetError("DATASET_UNREADABLE", [{ file: path, line: 0, message: reason }]);
}

/**
 * Loads and validates every single-turn item; throws a DatasetError listing every problem when any line
 * is bad. Conversation lines are validated too, and left to `loadConversations`.
 */
export function loadDataset(paths?: string | readonly string[]): LoadedItem[] {
  return loadAll(paths).items;
}

/** Both kinds of line, validated; throws a DatasetError listing every problem when any line is bad. */
export function loadAll(paths?: string | readonly string[]): {
  items: LoadedItem[];
  conversations: LoadedConversation[];
} {
  const { items, conversations, problems } = readDataset(paths);
  if (problems.length > 0) throw new DatasetError("DATASET_INVALID", problems);
  return { items, conversations };
}

/** The conversation lines (`turns` instead of `query`), validated like loadDataset's. */
export function loadConversations(paths?: string | readonly string[]): LoadedConversation[] {
  return loadAll(paths).conversations;
}

/** Like loadAll, but returns the valid lines and the problems instead of throwing (for the check). */
export function readDataset(paths?: string | readonly string[]): {
  items: LoadedItem[];
  conversations: LoadedConversation[];
  problems: DatasetProblem[];
} {
  const items: LoadedItem[] = [];
  const conversations: LoadedConversation[] = [];
  const problems: DatasetProblem[] = [];
  const firstSeen = new Map<string, { file: string; line: number }>();
  for (const file of resolveDatasetFiles(paths)) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (cause) {
      throw new DatasetError("DATASET_UNREADABLE", [{ file, line: 0, message: (cause as Error).message }], { cause });
    }
    // a byte-order mark opening the file is an encoding marker (editors on Windows write one), not content
    const lines = text.replace(/^\uFEFF/, "").split("\n");
    if (lines.every((raw) => raw.trim() === "")) {
      problems.push({ file, line: 0, message: "the file is empty: a dataset file holds one JSON item per line" });
      continue;
    }
    lines.forEach((raw, index) => {
      const line = index + 1;
      if (raw.trim() === "") return;
      const parsed = parseLine(raw, file, line);
      if ("problem" in parsed) {
        problems.push(parsed.problem);
        return;
      }
      const id = parsed.item.id;
      const earlier = firstSeen.get(id);
      if (earlier) {
        problems.push({ file, line, id, message: `duplicate id, first used at ${earlier.file}:${earlier.line}` });
        return;
      }
      firstSeen.set(id, { file, line });
      if (parsed.item.category === "conversation") {
        conversations.push({ conversation: parsed.item as ConversationItem, file, line });
      } else items.push({ item: parsed.item as DatasetItem, file, line });
    });
  }
  return { items, conversations, problems };
}

function parseLine(
  raw: string,
  file: string,
  line: number,
): { item: DatasetItem | ConversationItem } | { problem: DatasetProblem } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { problem: { file, line, message: `not valid JSON (${(error as Error).message})` } };
  }
  const validate = itemValidator();
  if (!validate(value)) {
    const id = typeof (value as { id?: unknown })?.id === "string" ? (value as { id: string }).id : undefined;
    return { problem: { file, line, id, message: describeSchemaErrors(validate.errors) } };
  }
  return { item: value as DatasetItem | ConversationItem };
}

/** The rejected value when it is short text (formatProblem shows its invisible characters). */
function got(error: ErrorObject): string {
  return typeof error.data === "string" && error.data.length <= 60 ? `, not ${JSON.stringify(error.data)}` : "";
}

/** ajv errors → one readable reason; `if/then` wrapper errors are dropped in favour of the real one. */
function describeSchemaErrors(errors: ErrorObject[] | null | undefined): string {
  const useful = (errors ?? []).filter((error) => error.keyword !== "if");
  return useful
    .map((error) => {
      const at = error.instancePath ? error.instancePath.slice(1).replaceAll("/", ".") : "item";
      if (error.keyword === "additionalProperties") {
        return `${at}: unknown field "${(error.params as { additionalProperty: string }).additionalProperty}"`;
      }
      if (error.keyword === "enum") {
        return `${at}: must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.join(", ")}${got(error)}`;
      }
      if (error.keyword === "const") {
        return `${at}: must be ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)}${got(error)}`;
      }
      return `${at} ${error.message ?? error.keyword}`;
    })
    .join("; ");
}
