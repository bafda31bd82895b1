/**
 * OnsetLab's rule router of the design-document era (`router.py@b84d008`), decision for decision:
 * meta patterns (`help` anywhere) → DIRECT; no matching tool → DIRECT; exploratory and not sequential
 * → REACT; otherwise REWOO. `relevance: onsetlab` is its tool match, quirks included: +5/+3 for the
 * tool's name inside the query, +2 per shared word among the description's first 15 (split on spaces,
 * punctuation kept), +4 when a built-in's verb list has any entry inside the query as a substring
 * (`to`, `/`, `-`, `day`, `ml` … make nearly every query match once the built-ins are connected).
 */

import type { ToolDefinition } from "../tool-protocol/types.ts";
import { pyLength, pySplit } from "./onsetlab-text.ts";

/** A line's `.` is Python's (anything but `\n`), hence `[^\n]` below. */
const META = [
  /\bwhat tools\b/i,
  /\blist[^\n]*(tools|capabilities)\b/i,
  /\bwhat can you do\b/i,
  /\bhelp\b/i,
  /\bhow do (you|i) use\b/i,
  /\bwhat are your\b/i,
];
const EXPLORATORY = [
  /\bsearch\b/i,
  /\bfind\b(?![^\n]*file)/i,
  /\blook for\b/i,
  /\bexplore\b/i,
  /\bwhat[^\n]*(available|exist)\b/i,
  /\bbrowse\b/i,
  /\bdiscover\b/i,
];
const SEQUENTIAL = [
  /\bthen\b/i,
  /\bafter that\b/i,
  /\bnext\b/i,
  /\bfinally\b/i,
  /\bfirst\b[^\n]*\bthen\b/i,
  /\band\b[^\n]*\band\b/i,
];

const STOP_WORDS = new Set(["a", "an", "the", "is", "are", "to", "for", "of", "and", "or"]);
const DESCRIPTION_WORDS = 15;
const MATCH_MIN = 2;

/** Built-in kinds (a fragment of the tool's name without `_`) and the query substrings that call for them. */
const PURPOSE: [string, string[]][] = [
  [
    "calculator",
    [
      "calculate",
      "compute",
      "what is",
      "solve",
      "math",
      "add",
      "subtract",
      "multiply",
      "divide",
      "+",
      "-",
      "*",
      "/",
      "=",
      "sum",
      "product",
      "difference",
      "quotient",
      "power",
      "square",
      "root",
      "percent",
    ],
  ],
  ["datetime", ["time", "date", "today", "now", "current", "day", "month", "year", "week", "hour", "minute"]],
  [
    "unitconverter",
    [
      "convert",
      "how many",
      "to",
      "from",
      "units",
      "km",
      "miles",
      "meters",
      "feet",
      "inches",
      "celsius",
      "fahrenheit",
      "kelvin",
      "kg",
      "pounds",
      "lbs",
      "ounces",
      "grams",
      "liters",
      "gallons",
      "ml",
    ],
  ],
  [
    "textprocessor",
    ["text", "string", "uppercase", "lowercase", "reverse", "count", "words", "characters", "upper", "lower", "make"],
  ],
  ["random", ["random", "generate", "pick", "roll", "dice"]],
];

export function isExploratory(task: string): boolean {
  return EXPLORATORY.some((pattern) => pattern.test(task));
}

export function isSequential(task: string): boolean {
  return SEQUENTIAL.some((pattern) => pattern.test(task));
}

export function isMeta(task: string): boolean {
  return META.some((pattern) => pattern.test(task));
}

/** OnsetLab's normalised task: lower case, surrounding whitespace trimmed. */
export function onsetlabTask(query: string): string {
  return query.toLowerCase().trim();
}

/** The tools OnsetLab's router finds relevant (score ≥ 2); a later tool of the same name replaces an earlier one. */
export function onsetlabMatches(task: string, tools: readonly ToolDefinition[]): string[] {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return [...byName.values()].filter((tool) => onsetlabMatchScore(task, tool) >= MATCH_MIN).map((tool) => tool.name);
}

export function onsetlabMatchScore(task: string, tool: ToolDefinition): number {
  const taskWords = new Set(pySplit(task));
  const name = tool.name.toLowerCase().replaceAll("_", " ");
  let score = 0;
  if (task.includes(name)) score += 5;
  else if (pySplit(name).some((part) => pyLength(part) > 3 && task.includes(part))) score += 3;
  const described = new Set(pySplit((tool.description ?? "").toLowerCase()).slice(0, DESCRIPTION_WORDS));
  for (const word of taskWords) if (described.has(word) && !STOP_WORDS.has(word)) score += 2;
  if (servesPurpose(task, tool.name)) score += 4;
  return score;
}

function servesPurpose(task: string, toolName: string): boolean {
  const flat = toolName.toLowerCase().replaceAll("_", "");
  return PURPOSE.some(([kind, patterns]) => flat.includes(kind) && patterns.some((pattern) => task.includes(pattern)));
}
