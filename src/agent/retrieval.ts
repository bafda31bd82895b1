/**
 * Tool retrieval: which tools the planner sees, beyond one score per tool for the whole query. Three
 * techniques, each its own axis (types.ts), each usable over either scorer (`ranking`):
 *
 * - `tool_terms: schema` — a tool is also described by its parameters: their names, enum values, the
 *   server's name, and the kinds of value they take. A value in the query of a kind a parameter takes
 *   (a path, a URL, an email, an id, an `owner/repo`, a number, a date) counts for the tools that take it.
 * - `rank_clauses: on` — a request of several parts ("read X, then post it to Y") is ranked part by
 *   part, and the shown list takes each part's best tools in turn, so no part loses its tools to
 *   another part's many near-matches.
 * - `workflows: on` — a shown tool that needs an id the query does not give (a page named by its title,
 *   a channel by its `#name`) brings the tool of its server that finds such ids (a list or search tool
 *   whose name or description names the id's thing), in place of the lowest-ranked tool.
 *
 * None calls a model. Nothing here knows a dataset: kinds of value and the list/search vocabulary are
 * general; held-out measures (BFCL live_multiple, the official npm servers) are in scripts/tool-retrieval.ts.
 */

import type { ToolDefinition } from "../tool-protocol/types.ts";
import { contentWords, splitName, splitWords, stem } from "./text.ts";
import { requiredParams, toolProperties } from "./tool-schema.ts";
import type { ToolScore } from "./types.ts";

export interface RetrievalSettings {
  schemaTerms: boolean;
  clauses: boolean;
  workflows: boolean;
}

/** Scores every tool for one text (a query or a clause), best first, ties in connection order. */
export type Scorer = (text: string, tools: readonly ToolDefinition[]) => ToolScore[];

const SCORE_SCHEMA_WORD = 1;
const SCORE_VALUE_KIND = 2;

/** Kinds of value a query can hold, how to see them in text, and which parameter names take them. */
const VALUE_KINDS: { kind: string; inText: RegExp; param: RegExp }[] = [
  { kind: "url", inText: /\bhttps?:\/\/\S+/i, param: /ur[il]s?$|link|website/ },
  { kind: "email", inText: /\b[\w.+-]+@[\w-]+\.[\w.]+\b/, param: /email|recipient|^to$/ },
  {
    kind: "path",
    inText: /(^|\s)(~|\.{0,2})\/[\w.-]+|\b[\w-]+\/[\w./-]*\.[a-z0-9]{1,5}\b/i,
    param: /path|file|directory|folder|source|destination/,
  },
  { kind: "repo", inText: /\b[\w-]+\/[\w.-]+\b/, param: /^(owner|repo|repository)$/ },
  { kind: "id", inText: /\b(?=[A-Za-z0-9-]*\d)(?=[A-Za-z0-9-]*[A-Za-z])[A-Za-z0-9-]{8,}\b/, param: /id$|ids$/ },
  { kind: "channel", inText: /(^|\s)#[a-z][\w-]*/i, param: /channel/ },
  { kind: "number", inText: /#\d+\b/, param: /number$/ },
  {
    kind: "date",
    inText:
      /\b\d{4}-\d{2}-\d{2}|\b\d{1,2}(:\d{2})?\s*(am|pm)\b|\b(today|tomorrow|yesterday|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december)\b/i,
    param: /date|time|start|end|when|day|since|until|before|after/,
  },
];

/**
 * Everyday verbs → the operation words tool names use (general English, not any dataset's wording):
 * a request says "save it to", "mark it done", "tell #team"; tools say write, update, post.
 */
const OPERATIONS: Readonly<Record<string, readonly string[]>> = {
  save: ["write", "create"],
  jot: ["write"],
  log: ["write"],
  note: ["write"],
  record: ["write"],
  store: ["write"],
  mark: ["update"],
  set: ["update"],
  change: ["update"],
  bump: ["update"],
  edit: ["update"],
  modify: ["update"],
  assign: ["update"],
  rename: ["move", "update"],
  show: ["get", "read", "list"],
  open: ["get", "read", "retrieve"],
  view: ["get", "read", "retrieve"],
  read: ["get", "retrieve"],
  fetch: ["get"],
  tell: ["post", "send", "message"],
  share: ["post", "send"],
  announce: ["post"],
  notify: ["post", "send"],
  reply: ["reply", "post"],
  answer: ["reply", "post"],
  add: ["create", "add"],
  make: ["create"],
  remove: ["delete"],
  trash: ["delete", "archive", "move"],
  cancel: ["delete"],
  find: ["search", "list"],
  look: ["search", "get"],
  research: ["search"],
  who: ["get", "user", "profile"],
  total: ["calculate"],
  percent: ["calculate"],
  sum: ["calculate"],
};
const SCORE_OPERATION_NAME = 2;

/** Words that name a tool that finds things (the producer of ids a workflow needs). */
const FINDER = /^(list|search|find|query|lookup|get_users|get-users)|(^|[_-])(list|search|find|query)([_-]|$)/i;

function looseName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** The kinds of value present in a text. */
export function valueKinds(text: string): Set<string> {
  return new Set(VALUE_KINDS.filter((entry) => entry.inText.test(text)).map((entry) => entry.kind));
}

/** The kinds of value a parameter takes, from its name. */
function paramKinds(name: string): string[] {
  const loose = looseName(name);
  return VALUE_KINDS.filter((entry) => entry.param.test(loose)).map((entry) => entry.kind);
}

/** The words a tool's schema adds: parameter names, enum values, the server's name. */
function schemaWords(tool: ToolDefinition): Set<string> {
  const words = new Set<string>(splitWords(tool.server).map(stem));
  for (const [name, schema] of Object.entries(toolProperties(tool))) {
    for (const word of splitName(name)) words.add(stem(word));
    const values = Array.isArray(schema.enum) ? schema.enum : [];
    for (const value of values) if (typeof value === "string") for (const word of contentWords(value)) words.add(word);
  }
  return words;
}

/** The schema's score for a text: shared schema words, operations its verbs ask for, and the kinds of value the text gives that the tool takes. */
function schemaScore(text: string, tool: ToolDefinition): number {
  const terms = new Set(contentWords(text));
  let score = 0;
  const operations = new Set(splitWords(text).flatMap((word) => OPERATIONS[word] ?? []));
  for (const word of new Set(splitName(tool.name).map(stem))) if (operations.has(word)) score += SCORE_OPERATION_NAME;
  for (const word of schemaWords(tool)) if (terms.has(word)) score += SCORE_SCHEMA_WORD;
  const kinds = valueKinds(text);
  const taken = new Set(Object.keys(toolProperties(tool)).flatMap(paramKinds));
  for (const kind of kinds) if (taken.has(kind)) score += SCORE_VALUE_KIND;
  return score;
}

/** Value kinds whose text is an argument, not words about the operation ("meeting" in a file name asks for no meeting tool). */
const VALUE_ONLY = new Set(["url", "email", "path", "id"]);

/** The text without the values it carries: what is left says what to do. */
export function withoutValues(text: string): string {
  let rest = text;
  for (const entry of VALUE_KINDS) {
    if (!VALUE_ONLY.has(entry.kind)) continue;
    rest = rest.replace(new RegExp(entry.inText.source, `${entry.inText.flags.replace("g", "")}g`), " ");
  }
  return rest;
}

function withSchema(scorer: Scorer): Scorer {
  return (text, tools) => {
    const base = new Map(scorer(withoutValues(text), tools).map((entry) => [entry.name, entry.score]));
    return tools
      .map((tool, index) => ({ name: tool.name, score: (base.get(tool.name) ?? 0) + schemaScore(text, tool), index }))
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .map(({ name, score }) => ({ name, score }));
  };
}

/** The parts of a request: sentences, and clauses joined by "then", "and then", "after that", ";". */
export function splitClauses(query: string): string[] {
  const parts = query
    .split(/(?<=[.!?])\s+|;|,?\s+(?:and\s+)?then\b|,?\s+after that\b|,?\s+and\s+(?=(?:also\s+)?[a-z]+\s)/i)
    .map((part) => part.trim())
    .filter((part) => splitWords(part).length >= 2);
  return parts.length > 0 ? parts : [query];
}

/** The top `limit` tools: every clause's best in turn, then the whole query's ranking; ids found by workflows. */
export function retrieveTools(
  query: string,
  tools: readonly ToolDefinition[],
  limit: number,
  scorer: Scorer,
  settings: RetrievalSettings,
): { names: string[]; scores: ToolScore[] } {
  const score = settings.schemaTerms ? withSchema(scorer) : scorer;
  const whole = score(query, tools);
  const rankings = settings.clauses ? [...splitClauses(query).map((clause) => score(clause, tools)), whole] : [whole];
  const chosen: string[] = [];
  for (let depth = 0; chosen.length < Math.min(limit, tools.length) && depth < tools.length; depth += 1) {
    for (const ranking of rankings) {
      const name = ranking[depth]?.name;
      if (name !== undefined && !chosen.includes(name) && chosen.length < limit) chosen.push(name);
    }
  }
  // every ranking's first pick (the first round) stays whatever a workflow adds
  const names = settings.workflows ? addFinders(query, chosen, tools, rankings.length) : chosen;
  return { names, scores: whole };
}

/**
 * For each chosen tool needing an id the query does not hold, the finder of its server for that id's
 * thing, put in place of the lowest-ranked tool that is neither a first pick, nor a tool a finder was
 * added for, nor a finder.
 */
function addFinders(
  query: string,
  chosen: readonly string[],
  tools: readonly ToolDefinition[],
  firstPicks: number,
): string[] {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const queryHasId = valueKinds(query).has("id");
  const names = [...chosen];
  const kept = new Set(names.slice(0, firstPicks));
  for (const name of chosen) {
    const tool = byName.get(name);
    if (!tool || queryHasId) continue;
    for (const param of requiredParams(tool)) {
      if (!paramKinds(param).includes("id")) continue;
      const finder = finderFor(tool, param, tools);
      if (!finder || names.includes(finder.name)) continue;
      const replace = [...names].reverse().find((candidate) => !kept.has(candidate));
      if (replace === undefined) return names;
      names.splice(names.indexOf(replace), 1);
      names.splice(names.indexOf(name) + 1, 0, finder.name);
      kept.add(name).add(finder.name);
    }
  }
  return names;
}

/** The list/search tool of the tool's server that names the id's thing (`channel_id` → a channel lister), else its search tool. */
function finderFor(tool: ToolDefinition, param: string, tools: readonly ToolDefinition[]): ToolDefinition | undefined {
  const thing = stem(looseName(param).replace(/ids?$/, ""));
  const finders = tools.filter((other) => other.server === tool.server && other !== tool && FINDER.test(other.name));
  const names = (other: ToolDefinition) => [...splitName(other.name), ...splitWords(other.description)].map(stem);
  return (
    (thing ? finders.find((other) => names(other).includes(thing)) : undefined) ??
    finders.find((other) => /search/i.test(other.name))
  );
}
