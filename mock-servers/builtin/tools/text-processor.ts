import type { ToolSpec } from "../../kit/types.ts";
import { requireParameter } from "./arguments.ts";

const OPERATIONS = [
  "word_count",
  "char_count",
  "line_count",
  "uppercase",
  "lowercase",
  "titlecase",
  "reverse",
  "trim",
  "find",
  "replace",
  "extract_emails",
  "extract_urls",
  "extract_numbers",
] as const;
type Operation = (typeof OPERATIONS)[number];

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`]+/g;
const NUMBER = /-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?/g;

interface TextResult {
  result: string | number | Array<string | number>;
  count?: number;
  positions?: number[];
  without_spaces?: number;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Distinct matches in order of first appearance. */
function extract(text: string, pattern: RegExp, clean: (match: string) => string = (match) => match): string[] {
  return [...new Set(Array.from(text.matchAll(pattern), (match) => clean(match[0])))];
}

const OPERATION_HANDLERS: Record<Operation, (text: string, args: Record<string, unknown>) => TextResult> = {
  word_count: (text) => ({ result: text.split(/\s+/).filter(Boolean).length }),
  char_count: (text) => ({
    result: Array.from(text).length,
    without_spaces: Array.from(text.replace(/\s/g, "")).length,
  }),
  line_count: (text) => ({ result: text === "" ? 0 : text.replace(/\r?\n$/, "").split(/\r?\n/).length }),
  uppercase: (text) => ({ result: text.toUpperCase() }),
  lowercase: (text) => ({ result: text.toLowerCase() }),
  titlecase: (text) => ({
    result: text
      .toLowerCase()
      .replace(/(^|[\s\-–(["'])(\p{L})/gu, (_m, lead: string, letter: string) => lead + letter.toUpperCase()),
  }),
  reverse: (text) => ({ result: Array.from(text).reverse().join("") }),
  trim: (text) => ({ result: text.trim() }),
  find: (text, args) => {
    const pattern = requireParameter<string>(args, "pattern", "find");
    const positions = Array.from(text.matchAll(new RegExp(escapeRegExp(pattern), "gi")), (match) => match.index);
    return { result: positions.length, count: positions.length, positions };
  },
  replace: (text, args) => {
    const pattern = requireParameter<string>(args, "pattern", "replace");
    const replacement = String(args.replacement ?? "");
    const matcher = new RegExp(escapeRegExp(pattern), "gi");
    const count = Array.from(text.matchAll(matcher)).length;
    return { result: text.replace(matcher, () => replacement), count };
  },
  extract_emails: (text) => {
    const emails = extract(text, EMAIL);
    return { result: emails, count: emails.length };
  },
  extract_urls: (text) => {
    const urls = extract(text, URL_PATTERN, (url) => url.replace(/[.,;:!?)\]]+$/, ""));
    return { result: urls, count: urls.length };
  },
  extract_numbers: (text) => {
    const numbers = Array.from(text.matchAll(NUMBER), (match) => Number(match[0].replaceAll(",", "")));
    return { result: numbers, count: numbers.length };
  },
};

export const textProcessorTool: ToolSpec<unknown> = {
  name: "text_processor",
  description:
    "Process text: count words/characters/lines, change case (uppercase, lowercase, titlecase), reverse, trim, find or " +
    "replace a literal phrase (case-insensitive), or extract emails, URLs and numbers.",
  inputSchema: {
    type: "object",
    properties: {
      operation: { type: "string", enum: [...OPERATIONS], description: "What to do with the text." },
      text: { type: "string", description: "The text to process." },
      pattern: { type: "string", description: "Phrase to look for (find, replace); matched literally, ignoring case." },
      replacement: { type: "string", description: "Replacement text for replace (default: empty, i.e. delete)." },
    },
    required: ["operation", "text"],
  },
  outputSchema: {
    type: "object",
    properties: {
      operation: { type: "string", enum: [...OPERATIONS] },
      result: {
        type: ["string", "number", "array"],
        items: { type: ["string", "number"] },
        description: "Transformed text, a count, or the extracted items.",
      },
      count: { type: "integer", description: "Matches found / replaced / extracted." },
      positions: { type: "array", items: { type: "integer" }, description: "find: 0-based offsets of each match." },
      without_spaces: { type: "integer", description: "char_count: characters excluding whitespace." },
    },
    required: ["operation", "result"],
    additionalProperties: false,
  },
  annotations: { title: "Text processor", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args) => {
    const operation = String(args.operation) as Operation;
    return { operation, ...OPERATION_HANDLERS[operation](String(args.text), args) };
  },
};
