/**
 * Where a missing required value can be found in the query without asking the model again: one
 * pattern per kind of value, tried in order; the first that applies to the parameter and finds
 * something wins. Each pattern names itself, so a rescue records where its value came from.
 */

import type { JsonSchema } from "../tool-protocol/types.ts";

export interface ExtractionContext {
  query: string;
  param: string;
  schema: JsonSchema;
  /** The step's current arguments (a merged `owner/repo` value lives here). */
  args: Record<string, unknown>;
}

export interface Extraction {
  value: unknown;
  pattern: string;
  /** Other arguments the same pattern corrects (splitting `owner="a/b"` also fixes `owner`). */
  also?: Record<string, unknown>;
}

interface RescuePattern {
  name: string;
  applies: (param: string, schema: JsonSchema) => boolean;
  extract: (context: ExtractionContext) => unknown | { value: unknown; also: Record<string, unknown> } | undefined;
}

const OWNER_REPO_ARG = /^([A-Za-z0-9][\w.-]*)\/([A-Za-z0-9][\w.-]*)$/;
const OWNER_REPO_TEXT = /(?<![\w./:-])(?:github\.com\/)?([A-Za-z][\w.-]*)\/([A-Za-z0-9][\w.-]*[A-Za-z0-9_])(?![\w/])/;
const URL = /https?:\/\/[^\s"'<>()]+[^\s"'<>().,;:!?]/;
const UUID = /\b[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\b/i;
const EMAIL = /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/;
const ISO_DATE = /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/;
const QUOTED = /"([^"]+)"|“([^”]+)”|'([^']{2,})'(?!\w)|`([^`]+)`/g;

/** Intent words → `method` values, most specific first; only values in the schema's enum count. */
const METHOD_INTENTS: [string, RegExp][] = [
  ["get_comments", /\bcomments?\b/i],
  ["get_labels", /\blabels?\b/i],
  ["get_sub_issues", /\bsub-?issues?\b/i],
  ["get_parent", /\bparent\b/i],
  ["get_diff", /\bdiff\b/i],
  ["get_files", /\b(changed )?files\b/i],
  ["get_status", /\b(status|checks?|ci)\b/i],
  ["get_reviews", /\breviews?\b/i],
  ["create", /\b(create|open|new|add|file|submit|raise|report|make)\b/i],
  ["update", /\b(update|edit|change|modify|close|reopen|rename|assign|set|mark)\b/i],
  ["get", /\b(get|show|read|view|fetch|details?|describe|display|see|what|which|who|check)\b/i],
];

/** Text after a cue word: `titled "X"`, `saying "Y"`. */
const QUOTE_CUES: [RegExp, RegExp][] = [
  [/^(title|name|subject|summary)$/i, /\b(titled|called|named|title|subject|name)\b\W{0,3}$/i],
  [
    /^(text|body|message|content|comment|description|note)$/i,
    /\b(saying|says|say|message|text|body|content|comment|with|reading|that)\b\W{0,3}$|:\s*$/i,
  ],
  [/^(query|q|search|keywords?|search_term)$/i, /\b(for|about|search|query|find|on)\b\W{0,3}$/i],
];

export const RESCUE_PATTERNS: readonly RescuePattern[] = [
  {
    name: "split-owner-repo",
    applies: (param) => param === "owner" || param === "repo",
    extract: ({ param, args }) => {
      for (const [key, value] of Object.entries(args)) {
        const match = typeof value === "string" ? OWNER_REPO_ARG.exec(value.trim()) : null;
        if (!match) continue;
        const split = { owner: match[1], repo: match[2] };
        const also = Object.fromEntries(
          Object.entries(split).filter(([name]) => name !== param && (name === key || !(name in args))),
        );
        return { value: split[param as "owner" | "repo"], also };
      }
      return undefined;
    },
  },
  {
    name: "owner-repo",
    applies: (param) => param === "owner" || param === "repo",
    extract: ({ param, query }) => {
      const match = OWNER_REPO_TEXT.exec(query.replace(new RegExp(URL.source, "g"), keepGithubPath));
      if (!match) return undefined;
      return param === "owner" ? match[1] : match[2];
    },
  },
  {
    name: "method-intent",
    applies: (param, schema) => param === "method" && Array.isArray(schema.enum),
    extract: ({ query, schema }) => {
      const allowed = (schema.enum as unknown[]).map(String);
      return METHOD_INTENTS.find(([value, words]) => allowed.includes(value) && words.test(query))?.[0];
    },
  },
  {
    name: "state-word",
    applies: (param) => param === "state",
    extract: ({ query }) =>
      /\bclosed?\b/i.test(query) ? "closed" : /\b(open|opened)\b/i.test(query) ? "open" : undefined,
  },
  {
    name: "channel-id",
    applies: (param) => /channel/i.test(param),
    extract: ({ query, param }) =>
      /\b(C[A-Z0-9]{8,12})\b/.exec(query)?.[1] ??
      (/id$/i.test(param) ? undefined : /#([a-z0-9][\w-]*)/i.exec(query)?.[1]),
  },
  {
    name: "user-id",
    applies: (param) => /user/i.test(param),
    extract: ({ query }) => /\b([UW][A-Z0-9]{8,12})\b/.exec(query)?.[1],
  },
  {
    name: "uuid",
    applies: (param) => /(^|_)id$|Id$/.test(param),
    extract: ({ query }) => UUID.exec(query)?.[0],
  },
  {
    name: "email",
    applies: (param, schema) =>
      /email/i.test(param) || schema.format === "email" || itemSchema(schema).format === "email",
    extract: ({ query }) => EMAIL.exec(query)?.[0],
  },
  {
    name: "iso-date",
    applies: (param, schema) =>
      /date|since|until|due|start|end|time/i.test(param) || /^date/.test(String(schema.format ?? "")),
    extract: ({ query }) => ISO_DATE.exec(query)?.[0],
  },
  {
    name: "url",
    applies: (param) => /url|link|href/i.test(param),
    extract: ({ query }) => URL.exec(query)?.[0],
  },
  {
    name: "number",
    applies: (_, schema) => hasType(schema, "number") || hasType(schema, "integer"),
    extract: ({ query }) => {
      const match =
        /#(\d+)\b/.exec(query) ??
        /\b(?:issue|pr|pull request|pull|number|no\.?|ticket)\s*#?(\d+)\b/i.exec(query) ??
        /(?<![\w/.:-])(\d+)(?![\w/.:-])/.exec(query);
      return match ? Number(match[1]) : undefined;
    },
  },
  {
    name: "quoted",
    applies: (_, schema) => hasType(schema, "string") || hasType(schema, "array"),
    extract: ({ query, param, args }) => {
      const quotes = [...query.matchAll(QUOTED)].map((match) => ({
        text: (match[1] ?? match[2] ?? match[3] ?? match[4] ?? "").trim(),
        before: query.slice(Math.max(0, match.index - 24), match.index),
      }));
      const cue = QUOTE_CUES.find(([params]) => params.test(param))?.[1];
      const cued = cue ? quotes.find((quote) => cue.test(quote.before)) : undefined;
      const used = new Set(Object.values(args).filter((value): value is string => typeof value === "string"));
      return (cued ?? quotes.find((quote) => !used.has(quote.text)))?.text;
    },
  },
  {
    name: "query-phrase",
    applies: (param) => /^(query|q|search|keywords?|search_term|topic)$/i.test(param),
    extract: ({ query }) => {
      const match =
        /\b(?:search(?: the web| online| for news)?(?: for| about)?|look up|find(?: me)?|news (?:about|on)|about|research)\s+(.+?)\s*[.?!]*$/i.exec(
          query,
        );
      return match?.[1]?.trim() || undefined;
    },
  },
  {
    name: "file-path",
    applies: (param) => /path|file/i.test(param),
    extract: ({ query }) =>
      /(?<![\w/.:-])((?:\/|\.{1,2}\/)?(?:[\w.-]+\/)*[\w-]+\.[A-Za-z0-9]{1,6})(?![\w/])/.exec(query)?.[1] ??
      /(?<![\w])(\/[\w./-]+)/.exec(query)?.[1],
  },
  {
    name: "branch-name",
    applies: (param) => /^(branch|ref|head|base|from_branch)$/i.test(param),
    extract: ({ query }) => /\bbranch(?:\s+(?:named|called))?\s+[`'"]?([\w./-]+[\w])/i.exec(query)?.[1],
  },
];

/** The first pattern that applies and finds a value that fits the schema. */
export function extractValue(context: ExtractionContext): Extraction | undefined {
  for (const pattern of RESCUE_PATTERNS) {
    if (!pattern.applies(context.param, context.schema)) continue;
    const found = pattern.extract(context);
    if (found === undefined) continue;
    const { value, also } = isSplit(found) ? found : { value: found, also: undefined };
    const fitted = fitSchema(value, context.schema);
    if (fitted === undefined) continue;
    return { value: fitted, pattern: pattern.name, ...(also && Object.keys(also).length > 0 ? { also } : {}) };
  }
  return undefined;
}

function isSplit(found: unknown): found is { value: unknown; also: Record<string, unknown> } {
  return typeof found === "object" && found !== null && "also" in found && "value" in found;
}

/** Enum values matched case-insensitively; a scalar wrapped for an array parameter. */
function fitSchema(value: unknown, schema: JsonSchema): unknown {
  if (value === undefined || value === "") return undefined;
  if (Array.isArray(schema.enum)) {
    return schema.enum.find((option) => String(option).toLowerCase() === String(value).toLowerCase());
  }
  if (hasType(schema, "array") && !Array.isArray(value) && !hasType(schema, "string")) return [value];
  return value;
}

function hasType(schema: JsonSchema, type: string): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  return types.includes(type) || (Array.isArray(variants) && variants.some((variant) => hasType(variant, type)));
}

function itemSchema(schema: JsonSchema): JsonSchema {
  return schema.items && typeof schema.items === "object" ? (schema.items as JsonSchema) : {};
}

/** URLs other than github.com are blanked so their path does not read as `owner/repo`. */
function keepGithubPath(url: string): string {
  const match = /^https?:\/\/(?:www\.)?github\.com\/([^/\s]+)\/([^/\s#?]+)/.exec(url);
  return match ? ` ${match[1]}/${match[2]} ` : " ";
}
