/**
 * BFCL v4 multi-turn entries and their ground truth, read as BFCL reads them (JSON Lines; a float
 * in an initial_config stays a float). An entry names its environments (`involved_classes`), their
 * starting state (`initial_config`), the functions never offered (`excluded_function`) and, in
 * miss_func, the functions held back until a turn (`missed_function`).
 */

import { readFileSync } from "node:fs";
import { parseTaggedJson } from "../../python/json-tagged.ts";
import { BfclInputError } from "../errors.ts";
import { v4AnswersFile, v4QuestionsFile } from "../paths.ts";
import { asDict, asList, fromPyValue, type PyDict, str, type V } from "./py.ts";

export const MULTI_TURN_CATEGORIES = [
  "multi_turn_base",
  "multi_turn_miss_func",
  "multi_turn_miss_param",
  "multi_turn_long_context",
] as const;
export type MultiTurnCategory = (typeof MULTI_TURN_CATEGORIES)[number];

export function isMultiTurnCategory(category: string): category is MultiTurnCategory {
  return (MULTI_TURN_CATEGORIES as readonly string[]).includes(category);
}

export interface TurnMessage {
  readonly role: string;
  readonly content: string;
}

export interface MultiTurnEntry {
  readonly id: string;
  /** One list of user messages per turn (empty where miss_func offers the held-back function). */
  readonly turns: readonly (readonly TurnMessage[])[];
  readonly initialConfig: PyDict;
  readonly involvedClasses: readonly string[];
  readonly excludedFunctions: readonly string[];
  /** miss_func: turn index → functions first offered at that turn. */
  readonly missedFunctions: ReadonlyMap<number, readonly string[]>;
}

/** BFCL's test: the category (the id without its number) mentions long_context (or composite). */
export function isLongContext(entryId: string): boolean {
  const category = entryId.slice(0, Math.max(0, entryId.lastIndexOf("_")));
  return category.includes("long_context") || category.includes("composite");
}

function jsonLines(file: string): { line: number; value: V }[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (cause) {
    throw new BfclInputError("BFCL_MISSING_FILE", `${file}: cannot read (${(cause as Error).message})`, {
      context: { file },
      cause,
    });
  }
  const out: { line: number; value: V }[] = [];
  text.split("\n").forEach((raw, i) => {
    if (raw.trim() === "") return;
    try {
      out.push({ line: i + 1, value: fromPyValue(parseTaggedJson(raw)) });
    } catch (cause) {
      throw new BfclInputError("BFCL_BAD_LINE", `${file}:${i + 1}: not a JSON object (${(cause as Error).message})`, {
        context: { file, line: i + 1 },
        cause,
      });
    }
  });
  return out;
}

function field(entry: PyDict, name: string, where: string): V {
  const value = entry.get(name);
  if (value === undefined)
    throw new BfclInputError("BFCL_MISSING_FIELD", `${where}: no "${name}" field`, { context: { where, field: name } });
  return value;
}

export function readMultiTurnEntries(file: string): MultiTurnEntry[] {
  return jsonLines(file).map(({ line, value }) => {
    const where = `${file}:${line}`;
    const entry = asDict(value);
    const missed = entry.get("missed_function");
    return {
      id: str(field(entry, "id", where)),
      turns: asList(field(entry, "question", where)).map((turn) =>
        asList(turn).map((m) => {
          const message = asDict(m);
          return { role: str(message.get("role") ?? "user"), content: str(message.get("content") ?? "") };
        }),
      ),
      initialConfig: asDict(entry.get("initial_config") ?? new Map()),
      involvedClasses: asList(field(entry, "involved_classes", where)).map((c) => str(c)),
      excludedFunctions: asList(entry.get("excluded_function") ?? []).map((c) => str(c)),
      missedFunctions: new Map(
        missed === undefined
          ? []
          : [...asDict(missed)].map(([turn, names]) => [Number(turn), asList(names).map((n) => str(n))]),
      ),
    };
  });
}

/** Ground truth: per entry id, one list of call texts per turn. */
export function readGroundTruth(file: string): Map<string, string[][]> {
  return new Map(
    jsonLines(file).map(({ line, value }) => {
      const entry = asDict(value);
      const where = `${file}:${line}`;
      const turns = asList(field(entry, "ground_truth", where)).map((turn) => asList(turn).map((call) => str(call)));
      return [str(field(entry, "id", where)), turns] as const;
    }),
  );
}

export function readCategory(dataDir: string, category: MultiTurnCategory) {
  return {
    entries: readMultiTurnEntries(v4QuestionsFile(dataDir, category)),
    groundTruth: readGroundTruth(v4AnswersFile(dataDir, category)),
  };
}
