/**
 * The answer text, grounded: an item's expected strings (answer.contains / anyOf / regex) go into the
 * answer only when the tool data shown in the prompt holds them. Items without tool calls (direct,
 * irrelevant, missing_info) answer from the gold check itself: the refusal or the question for the
 * missing value, plus what the check asks for.
 */

import type { SimGoldItem } from "./gold.ts";
import { exampleMatching } from "./regex-example.ts";

/**
 * The answer to a query that is none of the dataset's: the simulator (and the stand-in, which is the
 * simulator behind an Ollama API) knows only its dataset's items, and says so, naming how to give it yours.
 */
export const NOT_IN_DATASET =
  "I'm sorry, I can't help with that. (Simulated: this query is not an item of the dataset the simulator " +
  "was given, and it answers only those. Give it yours: --dataset FILE; the stand-in: pnpm standin --dataset FILE.)";

/** The answer of a model whose prompt lacks a tool the task needs: it says so rather than guess a name. */
export const LACKING_TOOL = "I can't do that with the tools I have. Please connect a tool that can.";

export function groundedAnswer(item: SimGoldItem | undefined, data: string): string {
  if (!item) return NOT_IN_DATASET;
  const fromCheck = item.calls.length === 0;
  const check = item.answer ?? {};
  const seen = loose(data);
  const grounded = (text: string) => fromCheck || seen.includes(loose(text));
  const pieces = (check.contains ?? []).filter(grounded);
  const alternative = (check.anyOf ?? []).find(grounded);
  if (alternative !== undefined) pieces.push(alternative);
  const regexPiece = check.regex === undefined ? undefined : regexAnswer(check.regex, data, fromCheck);
  if (regexPiece) pieces.push(regexPiece);
  const lead = leadSentence(item, data, pieces.length > 0);
  const answer = [lead, pieces.length > 0 ? `${pieces.join("; ")}.` : ""].filter(Boolean).join(" ");
  return respectChecks(item, answer, pieces, regexPiece);
}

/**
 * The data's own match of the regex; for a regex that matches without consuming text (lookaheads over
 * several facts), the fewest leading data lines it matches; else an example, if the data holds every
 * word of it.
 */
function regexAnswer(source: string, data: string, fromCheck: boolean): string | undefined {
  let pattern: RegExp;
  try {
    pattern = new RegExp(source, "i");
  } catch {
    return undefined; // a broken regex in the dataset: the dataset check reports it
  }
  if (!fromCheck) {
    for (const text of [data, unescapeJson(data)]) {
      const found = pattern.exec(text);
      if (found?.[0]) return found[0];
      if (found) return leadingLinesMatching(pattern, text);
    }
  }
  const example = exampleMatching(source);
  if (example === undefined || fromCheck) return example;
  const seen = loose(data);
  const words = example.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return words.length > 0 && words.every((word) => seen.includes(word)) ? example : undefined;
}

function leadingLinesMatching(pattern: RegExp, text: string): string | undefined {
  const lines = text.split("\n").map((line) => line.trim());
  for (let count = 1; count <= lines.length; count++) {
    const joined = lines.slice(0, count).join(" ");
    if (pattern.test(joined)) return joined;
  }
  return undefined;
}

function leadSentence(item: SimGoldItem, data: string, hasPieces: boolean): string {
  if (item.category === "irrelevant") return "I can't do that: none of the available tools can help with this request.";
  if (item.category === "clarify") {
    const missing = (item.missing ?? []).map((name) => name.replace(/[_-]+/g, " ")).join(" and ");
    return `Which ${missing || "details"} should I use?`;
  }
  if (item.category === "missing_info") {
    const missing = (item.missing ?? []).map((name) => name.replace(/[_-]+/g, " ")).join(" and ");
    return `I need more information to do that: please tell me the ${missing || "missing details"}.`;
  }
  if (hasPieces) return item.calls.length > 0 ? "Here is what I found:" : "";
  if (item.calls.length === 0) return "I can answer that without using any tool.";
  const excerpt = data.replace(/\s+/g, " ").trim().slice(0, 120);
  return excerpt ? `The tools returned: ${excerpt}.` : "I could not get that information from the tools.";
}

/** notContains: fall back to the bare pieces. regex anchored at the start: put its piece first. */
function respectChecks(
  item: SimGoldItem,
  answer: string,
  pieces: readonly string[],
  regexPiece: string | undefined,
): string {
  const check = item.answer ?? {};
  const forbidden = (text: string) =>
    (check.notContains ?? []).some((word) => text.toLowerCase().includes(word.toLowerCase()));
  let result = forbidden(answer) && pieces.length > 0 ? `${pieces.join("; ")}.` : answer;
  if (check.regex !== undefined && regexPiece && !safeTest(check.regex, result)) result = `${regexPiece}. ${result}`;
  return result;
}

function safeTest(source: string, text: string): boolean {
  try {
    return new RegExp(source, "i").test(text);
  } catch {
    return false;
  }
}

/** For containment: lower case, JSON escapes undone, whitespace collapsed. */
function loose(text: string): string {
  return unescapeJson(text).toLowerCase().replace(/\s+/g, " ");
}

function unescapeJson(text: string): string {
  return text.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, escaped: string) => {
    if (escaped.startsWith("u") && escaped.length === 5)
      return String.fromCharCode(Number.parseInt(escaped.slice(1), 16));
    return escaped === "n" || escaped === "t" || escaped === "r" ? " " : escaped;
  });
}
