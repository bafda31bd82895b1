/**
 * Call-level mistakes, each the way small models make it: a neighbouring tool picked, a tool name
 * made up in a familiar shape, an argument dropped or renamed (case swap or synonym), `owner/repo`
 * merged into one value, a value copied from the prompt's example or slightly off, arguments written
 * by position.
 */

import type { CallErrorType } from "./error-types.ts";
import type { GoldCall } from "./gold.ts";
import { pick, type Random } from "./random.ts";
import type { ShownTool } from "./shown-tools.ts";

/** A call as the model writes it: arguments in order, by name or (positional) by position only. */
export interface WrittenCall {
  tool: string;
  args: [string, unknown][];
  positional: boolean;
}

export interface MistakeContext {
  tools: readonly ShownTool[];
  servers: readonly string[];
  random: Random;
}

export function writeCall(call: GoldCall, mistake: CallErrorType | undefined, context: MistakeContext): WrittenCall {
  const written: WrittenCall = { tool: call.tool, args: Object.entries(call.args), positional: false };
  switch (mistake) {
    case undefined:
      return written;
    case "wrong_tool":
      return { ...written, tool: neighbourTool(call.tool, context) };
    case "hallucinated_tool":
      return { ...written, tool: madeUpToolName(call.tool, context) };
    case "missing_required_param":
      return { ...written, args: dropArgument(written, context) };
    case "wrong_param_name":
      return { ...written, args: renameArgument(written.args, context.random) };
    case "merged_owner_repo":
      return { ...written, args: mergeOwnerRepo(written.args, context.random) };
    case "wrong_value":
      return { ...written, args: wrongValue(written, context) };
    case "positional_args":
      return { ...written, positional: true };
  }
}

/** The shown tool sharing most name words with the right one (e.g. `search_issues` for `list_issues`). */
function neighbourTool(tool: string, context: MistakeContext): string {
  const words = new Set(nameWords(tool));
  const scored = context.tools
    .filter((candidate) => candidate.name !== tool)
    .map((candidate) => ({
      name: candidate.name,
      score: nameWords(candidate.name).filter((w) => words.has(w)).length,
    }));
  const best = Math.max(...scored.map((entry) => entry.score));
  return (
    pick(
      context.random,
      scored.filter((entry) => entry.score === best),
    )?.name ?? tool
  );
}

const VERB_SWAPS: Record<string, string> = {
  list: "get",
  get: "fetch",
  read: "get",
  write: "create",
  create: "add",
  add: "create",
  update: "edit",
  delete: "remove",
  search: "find",
  find: "search",
  post: "send",
  send: "post",
  run: "execute",
  fetch: "get",
};

/**
 * The names a model makes up for a tool it was shown: camelCase, a server prefix, a swapped verb, a
 * plural. One of them can be a real tool the prompt did not show: the only way the simulator reaches
 * an unseen tool.
 */
export function madeUpNames(tool: string, servers: readonly string[]): string[] {
  const parts = nameWords(tool);
  return [
    parts.map((part, index) => (index === 0 ? part : part.charAt(0).toUpperCase() + part.slice(1))).join(""),
    ...(servers.length === 1 ? [`${servers[0]}.${tool}`] : []),
    verbFirst(parts),
    tool.endsWith("s") ? tool.slice(0, -1) : `${tool}s`,
  ];
}

/** A plausible name that no shown tool has. */
function madeUpToolName(tool: string, context: MistakeContext): string {
  const shown = new Set(context.tools.map((candidate) => candidate.name));
  const fresh = madeUpNames(tool, context.servers).filter((name) => name !== tool && !shown.has(name));
  return pick(context.random, fresh) ?? `${tool}_v2`;
}

/** The verb swapped and put first: `list_issues` → `get_issues`, `issue_write` → `create_issue`. */
function verbFirst(parts: readonly string[]): string {
  const first = parts[0] ?? "";
  const last = parts[parts.length - 1] ?? "";
  if (VERB_SWAPS[first]) return [VERB_SWAPS[first], ...parts.slice(1)].join("_");
  if (VERB_SWAPS[last]) return [VERB_SWAPS[last], ...parts.slice(0, -1)].join("_");
  return ["get", ...parts].join("_");
}

function dropArgument(call: WrittenCall, context: MistakeContext): [string, unknown][] {
  const required = context.tools.find((tool) => tool.name === call.tool)?.required ?? [];
  const names = call.args.map(([name]) => name);
  const requiredGiven = names.filter((name) => required.includes(name));
  const dropped = pick(context.random, requiredGiven.length > 0 ? requiredGiven : names);
  return call.args.filter(([name]) => name !== dropped);
}

const SYNONYMS: Record<string, string[]> = {
  owner: ["org", "organization", "user"],
  repo: ["repository", "repo_name"],
  repository: ["repo"],
  query: ["q", "search_query", "keywords"],
  q: ["query"],
  text: ["message", "content"],
  message: ["text", "content"],
  content: ["text", "body"],
  body: ["description", "content"],
  description: ["body", "details"],
  title: ["name", "subject"],
  name: ["title"],
  summary: ["title", "name"],
  channel_id: ["channel", "channel_name"],
  channel: ["channel_id"],
  path: ["file_path", "filename"],
  url: ["link", "uri"],
  urls: ["links", "url"],
  issue_number: ["number", "issue_id", "id"],
  pullNumber: ["pr_number", "number"],
  state: ["status"],
  limit: ["max_results", "count"],
  expression: ["expr", "formula"],
  method: ["action", "operation"],
  page_id: ["id", "page"],
  calendarId: ["calendar"],
  start: ["start_time", "from"],
  end: ["end_time", "to"],
  date: ["day"],
  code: ["source", "script"],
  language: ["lang"],
};

/** One argument under another name: the other case style, or a synonym. */
function renameArgument(args: [string, unknown][], random: Random): [string, unknown][] {
  const names = new Set(args.map(([name]) => name));
  const target = pick(random, [...names]) as string;
  const swapped = /_/.test(target) ? toCamel(target) : /[a-z][A-Z]/.test(target) ? toSnake(target) : undefined;
  const options = [...(swapped ? [swapped] : []), ...(SYNONYMS[target] ?? [])].filter((name) => !names.has(name));
  const renamed = pick(random, options) ?? `${target}_value`;
  return args.map(([name, value]) => [name === target ? renamed : name, value]);
}

/** `repo="acme/webapp"`, with owner left out or kept. */
function mergeOwnerRepo(args: [string, unknown][], random: Random): [string, unknown][] {
  const owner = args.find(([name]) => name === "owner")?.[1];
  const keepOwner = random() < 0.5;
  return args.flatMap(([name, value]): [string, unknown][] => {
    if (name === "repo") return [[name, `${String(owner)}/${String(value)}`]];
    if (name === "owner" && !keepOwner) return [];
    return [[name, value]];
  });
}

function wrongValue(call: WrittenCall, context: MistakeContext): [string, unknown][] {
  const scalar = call.args.filter(([, value]) => ["string", "number", "boolean"].includes(typeof value));
  const [target, gold] = pick(context.random, scalar) as [string, unknown];
  const shown = context.tools.find((tool) => tool.name === call.tool);
  const replacement = offValue(gold, [shown?.examples[target], ...(shown?.enums[target] ?? [])], context.random);
  return call.args.map(([name, value]) => [name, name === target ? replacement : value]);
}

/** A value that differs from the gold one after the scorer's normalisation: the prompt's example first. */
function offValue(gold: unknown, shownValues: readonly unknown[], random: Random): unknown {
  const fromPrompt = shownValues.filter(
    (value) => value !== undefined && typeof value === typeof gold && looseText(value) !== looseText(gold),
  );
  const copied = pick(random, fromPrompt);
  if (copied !== undefined) return copied;
  if (typeof gold === "boolean") return !gold;
  if (typeof gold === "number") return gold + 1;
  return nearMiss(String(gold));
}

function nearMiss(text: string): string {
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (date) {
    const next = new Date(Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]) + 1));
    return next.toISOString().slice(0, 10);
  }
  if (/^\d+$/.test(text)) return String(Number(text) + 1);
  if (/^[^/\s]+\/[^/\s]+$/.test(text)) return text.split("/")[1] as string;
  const words = text.trim().split(/\s+/);
  if (words.length > 1) return words.slice(0, -1).join(" ");
  return text.endsWith("s") ? text.slice(0, -1) : `${text}s`;
}

/** Text as the scorer compares it: lower case, no spaces or , . / - _ * ^ quotes. */
export function looseText(value: unknown): string {
  return String(value)
    .toLowerCase()
    .replace(/[\s,./\-_*^'"]/g, "");
}

function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function toCamel(name: string): string {
  return name.replace(/_+([a-zA-Z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

function toSnake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}
