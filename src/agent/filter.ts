/**
 * Tool filter: rank the connected tools by how well their names and descriptions match the query,
 * keep the top N. Score = 5 per tool-name word in the query + 3 per query word found inside the name
 * + 1.5 per description word in the query; the query is widened with synonyms first (PRs → pull requests).
 */

import type { ToolDefinition } from "../tool-protocol/types.ts";
import { rankOnsetlab } from "./filter-onsetlab.ts";
import { type RetrievalSettings, retrieveTools } from "./retrieval.ts";
import { contentWords, splitName, splitWords, stem } from "./text.ts";
import { isBuiltin } from "./tool-schema.ts";
import type { Builtins, Ranking, ToolScore } from "./types.ts";

export const SCORE_NAME_WORD = 5;
export const SCORE_NAME_SUBSTRING = 3;
export const SCORE_DESCRIPTION_WORD = 1.5;

/** What users say → what tools are called. Keys are single query words, lower case. */
export const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  pr: ["pull", "request"],
  prs: ["pull", "request"],
  dm: ["direct", "message"],
  dms: ["direct", "message"],
  repo: ["repository"],
  repos: ["repository"],
  msg: ["message"],
  ticket: ["issue"],
  tickets: ["issue"],
  bug: ["issue"],
  bugs: ["issue"],
  doc: ["page", "document"],
  docs: ["page", "document"],
  note: ["page"],
  notes: ["page"],
  meeting: ["event"],
  meetings: ["event"],
  appointment: ["event"],
  schedule: ["event", "calendar"],
  folder: ["directory"],
  dir: ["directory"],
  web: ["search"],
  google: ["search"],
  internet: ["search"],
  online: ["search"],
  math: ["calculate"],
  compute: ["calculate"],
  username: ["me", "user"],
  my: ["me"],
  myself: ["me"],
  send: ["post", "message"],
  tell: ["post", "message"],
  notify: ["post", "message"],
  say: ["post", "message"],
};

/** The query's content words, stemmed, plus their synonyms. */
export function queryTerms(query: string): Set<string> {
  const terms = new Set(contentWords(query));
  for (const word of splitWords(query)) {
    for (const synonym of SYNONYMS[word] ?? []) terms.add(stem(synonym));
  }
  return terms;
}

interface ToolWords {
  name: Set<string>;
  flatName: string;
  description: Set<string>;
}

function wordsOf(tool: ToolDefinition): ToolWords {
  return {
    name: new Set(splitName(tool.name).map(stem)),
    flatName: tool.name.toLowerCase(),
    description: new Set(contentWords(tool.description)),
  };
}

export function scoreTool(tool: ToolDefinition, terms: ReadonlySet<string>): number {
  const words = wordsOf(tool);
  let score = 0;
  for (const word of words.name) if (terms.has(word)) score += SCORE_NAME_WORD;
  for (const term of terms) {
    if (term.length >= 3 && !words.name.has(term) && words.flatName.includes(term)) score += SCORE_NAME_SUBSTRING;
  }
  for (const word of words.description) if (terms.has(word)) score += SCORE_DESCRIPTION_WORD;
  return score;
}

/** Every tool's score, best first; ties keep the connection order. */
export function rankTools(query: string, tools: readonly ToolDefinition[]): ToolScore[] {
  const terms = queryTerms(query);
  return tools
    .map((tool, index) => ({ name: tool.name, score: scoreTool(tool, terms), index }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map(({ name, score }) => ({ name, score }));
}

export interface FilteredTools {
  tools: ToolDefinition[];
  scores: ToolScore[];
  /**
   * The filter left tools out although no tool matched a word of the query (every score 0): what it
   * showed is the first tools in connection order, not a choice. Absent otherwise.
   */
  blind?: true;
}

/** Tools were left out, and the scores could not tell any tool from another (all 0). */
function isBlind(scores: readonly ToolScore[], kept: number): boolean {
  return kept < scores.length && scores.every((entry) => entry.score === 0);
}

/**
 * The top `limit` tools by score. `builtins: always` (OnsetLab) ranks only the server tools, shows the
 * built-ins first in any case, and filters nothing when there are no more server tools than `limit`.
 * `ranking: onsetlab` scores as OnsetLab does (filter-onsetlab.ts) and, like it, leaves tools it does not
 * cut in connection order. The retrieval techniques (retrieval.ts) choose among the tools when there
 * are more than `limit`.
 */
export function filterTools(
  query: string,
  tools: readonly ToolDefinition[],
  limit: number | "all",
  builtins: Builtins = "ranked",
  ranking: Ranking = "plus",
  retrieval: RetrievalSettings = NO_RETRIEVAL,
): FilteredTools {
  if (builtins === "always") {
    const servers = tools.filter((tool) => !isBuiltin(tool));
    const ranked = topTools(query, servers, limit, ranking, retrieval);
    return { ...ranked, tools: [...tools.filter(isBuiltin), ...ranked.tools] };
  }
  return topTools(query, tools, limit, ranking, retrieval);
}

export const NO_RETRIEVAL: RetrievalSettings = { schemaTerms: false, clauses: false, workflows: false };

function topTools(
  query: string,
  tools: readonly ToolDefinition[],
  limit: number | "all",
  ranking: Ranking,
  retrieval: RetrievalSettings,
): FilteredTools {
  const scorer = ranking === "onsetlab" ? rankOnsetlab : rankTools;
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const pick = (names: readonly string[]) => names.map((name) => byName.get(name) as ToolDefinition);
  if (limit !== "all" && tools.length > limit && Object.values(retrieval).some(Boolean)) {
    const retrieved = retrieveTools(query, tools, limit, scorer, retrieval);
    return shown(pick(retrieved.names), retrieved.scores);
  }
  const scores = scorer(query, tools);
  if (ranking === "onsetlab" && (limit === "all" || tools.length <= limit)) return shown([...tools], scores);
  const keep = limit === "all" ? scores : scores.slice(0, Math.max(0, limit));
  return shown(pick(keep.map((entry) => entry.name)), scores);
}

/** The tools kept, marked `blind` when some were left out although every tool scored 0. */
function shown(kept: ToolDefinition[], scores: ToolScore[]): FilteredTools {
  return { tools: kept, scores, ...(isBlind(scores, kept.length) ? { blind: true as const } : {}) };
}
