/**
 * OnsetLab's tool ranking (`ranking: onsetlab`; `agent_service.py@a7715a0` `_score_tool_relevance`):
 * 5 per name word in the query + 3 per query word of four or more characters inside the name + 1.5 per
 * description word in the query. Its tokens are whole `\w{3,}` words, unstemmed; a name splits on `_`
 * only (`create-event` stays one word and never meets a query word); only the description's first 100
 * characters count, less a 9-word stop list; its synonyms fire as substrings of the query, so `pr`
 * widens "print" and "April" and `star` widens "start".
 */

import type { ToolDefinition } from "../tool-protocol/types.ts";
import { pyHead, pyLength, pySplit, pyWordSet } from "./onsetlab-text.ts";
import type { ToolScore } from "./types.ts";

/** Checked in this order against the query as it grows, so an added phrase can fire a later entry. */
const SYNONYMS: readonly [string, string][] = [
  ["prs", "pull requests"],
  ["pr", "pull request"],
  ["repos", "repositories"],
  ["show", "list get"],
  ["find", "search"],
  ["look up", "search get"],
  ["check", "get"],
  ["who am i", "get me"],
  ["my profile", "get me"],
  ["my info", "get me"],
  ["star", "stars"],
  ["fork", "fork repository"],
  ["branch", "branches"],
  ["tag", "tags"],
  ["release", "releases"],
  ["commit", "commits"],
  ["diff", "get commit"],
  ["merge", "merge pull request"],
];

const DESCRIPTION_STOP = new Set(["the", "and", "for", "with", "that", "this", "from", "are", "was"]);
const DESCRIPTION_CHARS = 100;

export function expandOnsetlabQuery(query: string): string {
  let expanded = query.toLowerCase();
  for (const [abbreviation, full] of SYNONYMS) if (expanded.includes(abbreviation)) expanded += ` ${full}`;
  return expanded;
}

export function scoreOnsetlab(queryWords: ReadonlySet<string>, tool: ToolDefinition): number {
  const name = tool.name.toLowerCase().replaceAll("_", " ");
  let score = 0;
  for (const word of new Set(pySplit(name))) if (queryWords.has(word)) score += 5;
  for (const word of queryWords) if (pyLength(word) >= 4 && name.includes(word)) score += 3;
  for (const word of pyWordSet(pyHead((tool.description ?? "").toLowerCase(), DESCRIPTION_CHARS))) {
    if (queryWords.has(word) && !DESCRIPTION_STOP.has(word)) score += 1.5;
  }
  return score;
}

/** Every tool's score, best first; ties keep the connection order (Python's sort is stable). */
export function rankOnsetlab(query: string, tools: readonly ToolDefinition[]): ToolScore[] {
  const words = pyWordSet(expandOnsetlabQuery(query));
  return tools
    .map((tool) => ({ name: tool.name, score: scoreOnsetlab(words, tool) }))
    .sort((a, b) => b.score - a.score);
}
