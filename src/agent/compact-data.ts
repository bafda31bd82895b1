/**
 * Tool results as a small model should read them: the facts, not the JSON. A raw MCP result is mostly
 * noise for the question (URLs, colours, cursors, reaction counts, nested ids, quotes and braces);
 * cutting it at the solver's 800 characters keeps the first list element and loses the rest. This
 * renders a result as `key: value` lines and one line per list element, names and titles first,
 * nested wrappers collapsed to the value they hold, and sheds detail level by level — secondary fields
 * first, then long strings — until it fits, so every element of a list stays visible.
 */

import { contentWords, truncate } from "./text.ts";

/** Fields that name or identify a thing come first, in this order. */
const PRIMARY = [
  "name",
  "real_name",
  "full_name",
  "login",
  "display_name",
  "title",
  "summary",
  "subject",
  "number",
  "state",
  "status",
  "status_text",
  "conclusion",
  "start",
  "end",
  "date",
  "due",
  "id",
  "email",
  "phone",
  "head",
  "base",
  "path",
  "text",
  "content",
  "body",
  "value",
  "result",
  "answer",
  "type",
];
const PRIMARY_RANK = new Map(PRIMARY.map((key, index) => [key, index]));
/** Where the entries of a spliced map (Notion's `properties`) rank: right after names and titles. */
const SPLICED_RANK = 1.5;
/** A tagged record's payload (`type: "paragraph", paragraph: {…}`) is what it says: first of all. */
const PAYLOAD_RANK = -1;
/** Bookkeeping a question rarely asks about: shown last, shed first. */
const LOW =
  /^(?:created|updated|created_time|last_edited_time|[a-z]+_at|iCalUID|sequence|eventType|accountId|kind|startDayOfWeek|endDayOfWeek|archived|in_trash|is_archived|has_children|parent|created_by|last_edited_by|public_url|request_id|encoding|url|[a-z_]+_normalized|first_name|last_name|reactions|(?:background|foreground)?_?colou?r(?:_?id)?|(?:background|foreground)Color|colorId)$/i;
const LOW_RANK = 1000;

/** Keys that carry nothing a question asks about. */
const NOISE =
  /^(?:html_url|node_id|etag|avatar(?:_url)?|gravatar_id|[a-z_]*_url|url_[a-z_]+|[a-z]*Link|permissions|_links|icon|cover|object|has_more|next_cursor|pageInfo|[a-z]*Cursor|cursor|annotations|href|favicon|score|response_time|image_\d+|images)$/i;

/** Keys whose value, alone, stands for the object that holds them (`{login: "frank", id: 7}` → frank). */
const SALIENT = ["plain_text", "login", "dateTime", "date", "name", "title", "content", "email", "display_name", "ref"];

/**
 * How much to keep: fields per list element, characters per string inside elements (the first element
 * of a list, the best-ranked search result say, gets more), and characters of a top-level text (a
 * file's content, a page's markdown). Levels go from everything to names only.
 */
interface Detail {
  /** Stemmed content words of the question: a long text is cut to the sentences that mention them. */
  focus?: ReadonlySet<string>;
  fields: number;
  stringChars: number;
  /** Characters per string in the first element of a list. */
  headChars: number;
  textChars: number;
  /** Every level renders the same objects again: their ordered fields, worked out once per result. */
  ordered?: OrderedFields;
}

/** A record's ordered fields, plain and with maps spliced in (list elements). */
type OrderedFields = Map<Record<string, unknown>, { plain?: [string, unknown][]; spliced?: [string, unknown][] }>;

const ALL = Number.POSITIVE_INFINITY;
const LEVELS: readonly Detail[] = [
  { fields: ALL, stringChars: 200, headChars: 800, textChars: ALL },
  { fields: ALL, stringChars: 100, headChars: 600, textChars: 1200 },
  { fields: 10, stringChars: 100, headChars: 400, textChars: 800 },
  { fields: 7, stringChars: 80, headChars: 400, textChars: 600 },
  { fields: 5, stringChars: 80, headChars: 320, textChars: 400 },
  { fields: 3, stringChars: 60, headChars: 320, textChars: 300 },
  { fields: 2, stringChars: 50, headChars: 240, textChars: 200 },
  { fields: 1, stringChars: 40, headChars: 240, textChars: 120 },
  { fields: 1, stringChars: 30, headChars: 160, textChars: 80 },
];

/**
 * A result (structured data, or text that may be JSON) rendered to at most `budget` characters. With a
 * `question`, long texts keep the sentences that share its words rather than only their beginning.
 */
export function renderResult(value: unknown, budget: number, question?: string): string {
  const data = unwrapText(typeof value === "string" ? parseJson(value) : value);
  const focus = question === undefined ? undefined : new Set(contentWords(question));
  if (typeof data === "string") return clip(tidyText(data), budget, focus);
  const ordered: OrderedFields = new Map();
  for (const level of LEVELS) {
    const text = render(data, { ...level, focus, ordered });
    if (text.length <= budget) return text;
  }
  return fitLines(render(data, { ...LEVELS[LEVELS.length - 1]!, focus, ordered }), budget);
}

/**
 * A text cut to `chars`: whole when it fits; else, with focus words, the sentences that mention most of
 * them (the first sentence too, for context), in their order; else its beginning.
 */
export function clip(text: string, chars: number, focus?: ReadonlySet<string>): string {
  if (text.length <= chars) return text;
  const sentences = text.split(/(?<=[.!?])\s+|\n+/).filter((sentence) => sentence.trim() !== "");
  if (!focus || focus.size === 0 || sentences.length < 2) return truncate(text, chars);
  const scored = sentences.map((sentence, index) => ({
    sentence,
    index,
    score: contentWords(sentence).filter((word) => focus.has(word)).length,
  }));
  if (scored.every((entry) => entry.score < 1)) return truncate(text, chars);
  // the first sentence says what the text is about; then the sentences that mention the question
  const chosen: typeof scored = [];
  let used = 0;
  // …but it may take at most half the room unless it mentions the question itself
  const head = scored[0]!;
  const first =
    head.score === 0 && head.sentence.length > chars / 2
      ? { ...head, sentence: truncate(head.sentence, Math.floor(chars / 2)) }
      : head;
  const ranked = [
    first,
    ...scored
      .slice(1)
      .filter((entry) => entry.score >= 1)
      .sort((a, b) => b.score - a.score || a.index - b.index),
  ];
  for (const entry of ranked) {
    const room = chars - used - 3;
    if (entry.sentence.length <= room) {
      chosen.push(entry);
      used += entry.sentence.length + 3;
    } else if (room >= 40) {
      // the best sentence left does not fit whole: its beginning still says something
      chosen.push({ ...entry, sentence: truncate(entry.sentence, room) });
      used = chars;
    }
  }
  if (chosen.length === 0) return truncate(text, chars);
  return chosen
    .sort((a, b) => a.index - b.index)
    .map((entry, position, all) =>
      position > 0 && entry.index > all[position - 1]!.index + 1 ? `… ${entry.sentence}` : entry.sentence,
    )
    .join(" ");
}

/** MCP text content that is itself JSON (`{content: [{type: "text", text: "[…]"}]}`) → that JSON. */
function unwrapText(data: unknown): unknown {
  if (!isRecord(data) || !Array.isArray(data.content) || data.content.length !== 1) return data;
  const [part] = data.content as unknown[];
  if (!isRecord(part) || part.type !== "text" || typeof part.text !== "string") return data;
  const inner = parseJson(part.text);
  return typeof inner === "string" ? data : inner;
}

/** Text keeps its lines (a file's first five lines are lines), without runs of blanks. */
function tidyText(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/[ \t]+/g, " ").trimEnd())
    .filter((line, index, lines) => line !== "" || (index > 0 && lines[index - 1] !== ""))
    .join("\n")
    .trim();
}

function parseJson(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return text;
  try {
    return JSON.parse(trimmed);
  } catch {
    return text;
  }
}

function render(data: unknown, detail: Detail): string {
  if (Array.isArray(data)) return renderList(data, detail).join("\n");
  if (!isRecord(data)) return scalar(data, detail.textChars, detail);
  const lines: string[] = [];
  for (const [key, value] of orderedEntries(data, detail)) {
    if (isRichText(value)) {
      lines.push(`${key}: ${inline(value, detail, detail.textChars)}`);
    } else if (Array.isArray(value) && value.some((item) => isRecord(item) && taggedPayload(item) === undefined)) {
      lines.push(`${key} (${value.length}):`, ...renderList(value, detail));
    } else if (isMap(value)) {
      // {"1": {…}, "2": {…}}: a table keyed by id, one line per entry like a list
      const entries = Object.entries(value);
      lines.push(
        `${key} (${entries.length}):`,
        ...entries.map(
          ([id, entry]) => `- ${id}: ${entryText(entry as Record<string, unknown>, detail, detail.stringChars)}`,
        ),
      );
    } else if (typeof value === "string" && value.length > detail.stringChars) {
      const parsed = parseJson(value);
      lines.push(
        `${key}:`,
        typeof parsed === "string" ? clip(tidyText(value), detail.textChars, detail.focus) : render(parsed, detail),
      );
    } else if (isRecord(value) && taggedPayload(value) === undefined) {
      // a record at the top is the answer itself (a profile, a page): all its fields, not one
      lines.push(`${key}: ${element(value, detail, detail.stringChars)}`);
    } else {
      lines.push(`${key}: ${inline(value, detail, detail.textChars)}`);
    }
  }
  return lines.join("\n");
}

/** The first element of a list (the best search hit, the newest message) keeps more than the rest. */
function renderList(items: readonly unknown[], detail: Detail): string[] {
  return items.map((item, index) => {
    const head = index === 0;
    const chars = head ? detail.headChars : detail.stringChars;
    return `- ${isRecord(item) ? entryText(item, detail, chars, head ? 3 : 0) : inline(item, detail, chars)}`;
  });
}

/** A record as a list entry: the payload of a tagged union, else all its telling fields. */
function entryText(record: Record<string, unknown>, detail: Detail, chars: number, minFields = 0): string {
  const payload = taggedPayload(record);
  return payload === undefined ? element(record, detail, chars, minFields) : inline(payload, detail, chars);
}

/** One list element on one line: its most telling fields, as many as the detail level allows. */
function element(record: Record<string, unknown>, detail: Detail, chars: number, minFields = 0): string {
  const entries = orderedEntries(record, detail, true);
  const shown = entries.slice(0, Math.max(detail.fields, minFields));
  const fields = shown.map(([key, value]) => `${key}=${inline(value, detail, chars)}`);
  return (shown.length < entries.length ? [...fields, "…"] : fields).join("; ");
}

function inline(value: unknown, detail: Detail, chars: number): string {
  if (Array.isArray(value)) {
    // rich text arrives in runs ("Lazy-load ", "dashboard route"): runs join as they are
    if (isRichText(value)) {
      return scalar(value.map((item) => (item as { plain_text: string }).plain_text).join(""), chars, detail);
    }
    return `[${value.map((item) => inline(item, detail, chars)).join(", ")}]`;
  }
  if (isRecord(value)) {
    const salient = collapse(value);
    if (salient !== undefined) return inline(salient, detail, chars);
    return `{${element(value, { ...detail, fields: Math.min(detail.fields, 4) }, chars)}}`;
  }
  return scalar(value, chars, detail);
}

/** A tagged union's payload: `{type: "status", status: {…}}` (Notion's property values, rich text). */
function taggedPayload(record: Record<string, unknown>): unknown {
  return typeof record.type === "string" && Object.keys(record).length <= 4 ? record[record.type] : undefined;
}

/**
 * The one value a nested object stands for inside a line: a tagged union's payload, else its one
 * telling key (`{login: "frank", id: 7}` → frank). Undefined for a real record.
 */
function collapse(record: Record<string, unknown>): unknown {
  const payload = taggedPayload(record);
  if (payload !== undefined) return payload;
  for (const key of SALIENT) {
    const value = record[key];
    if (typeof value === "string" && value !== "") return value;
  }
  const runs = record.rich_text ?? record.title;
  if (
    Array.isArray(runs) &&
    runs.length > 0 &&
    runs.every((run) => isRecord(run) && typeof run.plain_text === "string")
  ) {
    return runs; // Notion text: inline() joins the runs
  }
  return undefined;
}

function scalar(value: unknown, chars: number, detail: Detail): string {
  // clipped before spaces are collapsed: line breaks (a markdown heading, a log line) end sentences too
  if (typeof value === "string") return clip(value.trim(), chars, detail.focus).replace(/\s+/g, " ");
  return String(value);
}

/**
 * Non-empty, non-noise fields, names and identifiers first. In a list element, a field holding a map
 * of wrappers (Notion's `properties`) is spliced in: its entries are the element's real fields.
 */
function orderedEntries(record: Record<string, unknown>, detail: Detail, splice = false): [string, unknown][] {
  const known = detail.ordered?.get(record) ?? {};
  const kind = splice ? "spliced" : "plain";
  let entries = known[kind];
  if (!entries) {
    entries = orderFields(record, splice);
    known[kind] = entries;
    detail.ordered?.set(record, known);
  }
  return entries;
}

function orderFields(record: Record<string, unknown>, splice: boolean): [string, unknown][] {
  const ranked: { entry: [string, unknown]; rank: number; index: number }[] = [];
  const payloadKey = typeof record.type === "string" ? record.type : undefined;
  for (const [key, value] of Object.entries(record)) {
    if (NOISE.test(key) || isEmpty(value)) continue;
    if (splice && isMap(value)) {
      for (const inner of Object.entries(value)) {
        if (!isEmpty(inner[1])) ranked.push({ entry: inner, rank: SPLICED_RANK, index: ranked.length });
      }
      continue;
    }
    const rank =
      key === payloadKey
        ? PAYLOAD_RANK
        : LOW.test(key)
          ? LOW_RANK
          : (PRIMARY_RANK.get(key.toLowerCase()) ?? PRIMARY.length);
    ranked.push({ entry: [key, value], rank, index: ranked.length });
  }
  return ranked.sort((a, b) => a.rank - b.rank || a.index - b.index).map(({ entry }) => entry);
}

/** Notion rich text: runs that each carry their plain text. */
function isRichText(value: unknown): value is { plain_text: string }[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((run) => isRecord(run) && typeof run.plain_text === "string")
  );
}

/** An object of several objects, keyed by id or name. */
function isMap(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  const values = Object.values(value);
  return values.length > 1 && values.every(isRecord);
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  return isRecord(value) && Object.keys(value).length === 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whole lines while they fit, then how many were left out. */
function fitLines(text: string, budget: number): string {
  const lines = text.split("\n");
  const kept: string[] = [];
  let used = 0;
  for (const [index, line] of lines.entries()) {
    const marker = ` … (${lines.length - index} more lines)`;
    if (used + line.length + 1 + marker.length > budget) {
      kept.push(marker.trim());
      return truncate(kept.join("\n"), budget);
    }
    kept.push(line);
    used += line.length + 1;
  }
  return kept.join("\n");
}
