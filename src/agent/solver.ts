/**
 * Solver: the question plus what the tools returned (capped, errors flagged) → a short answer, then
 * cleaned of the habits small models have: "Based on the results," openers, parenthetical notes,
 * a last sentence cut off by the token limit.
 */

import { PROTOCOL } from "../models/protocol.ts";
import type { GenerationOptions } from "../models/types.ts";
import { renderResult } from "./compact-data.ts";
import { truncate } from "./text.ts";
import type { SolverData } from "./types.ts";

export interface Evidence {
  /** e.g. `#E1 list_issues` or `list_issues`. */
  source: string;
  ok: boolean;
  text: string;
  /** The structured result, rendered compactly instead of the raw text when present. */
  data?: unknown;
}

export interface SolverPromptInput {
  query: string;
  evidence: readonly Evidence[];
  /** Characters of tool data in all (DESIGN §2: 800), or per result with `per_result`. */
  dataChars: number;
  /** `shared` (default): compact renderings sharing `dataChars`; `per_result` (OnsetLab): raw text, each cut at `dataChars`. */
  data?: SolverData;
  /** A conversation's earlier turns (history.ts), which the answer may build on. */
  history?: string;
}

export function buildSolverPrompt(input: SolverPromptInput): string {
  const history = input.history ? [`${PROTOCOL.conversationSoFar}\n${input.history}`] : [];
  if (input.evidence.length === 0) {
    return [
      "Answer the question in one or two short sentences.",
      ...history,
      `Question: ${input.query}`,
      PROTOCOL.answer,
    ].join("\n\n");
  }
  const lines =
    input.data === "per_result"
      ? formatEvidenceRaw(input.evidence, input.dataChars)
      : formatEvidence(input.evidence, input.dataChars, input.query);
  return [
    "Answer the question in one or two short sentences using the tool results. If a result is an ERROR, say what failed.",
    ...history,
    `Question: ${input.query}`,
    ["Tool results:", ...lines].join("\n"),
    PROTOCOL.answer,
  ].join("\n\n");
}

export function solverOptions(maxTokens: number): GenerationOptions {
  return { temperature: 0, maxTokens, stop: ["\nQuestion:", "\nTool results:"] };
}

/**
 * One block per result, rendered compactly (compact-data.ts); the budget is shared so short results stay
 * whole and long ones share the rest.
 */
export function formatEvidence(evidence: readonly Evidence[], budget: number, question?: string): string[] {
  const render = (item: Evidence, chars: number) =>
    item.ok
      ? renderResult(item.data ?? item.text, chars, question)
      : truncate(`ERROR: ${item.text.replace(/\s+/g, " ").trim()}`, chars);
  const shares = shareBudget(
    evidence.map((item) => render(item, Number.POSITIVE_INFINITY).length),
    budget,
  );
  return evidence.map((item, index) => `[${item.source}] ${render(item, shares[index] ?? 0)}`);
}

/** Characters of an error OnsetLab's solver shows. */
const RAW_ERROR_CHARS = 300;

/** OnsetLab's data block: each result's raw text cut at `perResult` characters (then "..."), errors at 300. */
function formatEvidenceRaw(evidence: readonly Evidence[], perResult: number): string[] {
  return evidence.map((item) => {
    const text = item.ok
      ? item.text.length > perResult
        ? `${item.text.slice(0, perResult)}...`
        : item.text
      : `ERROR: ${item.text.slice(0, RAW_ERROR_CHARS)}`;
    return `[${item.source}] ${text}`;
  });
}

/** Water-filling: smallest first, each gets what it needs up to an equal share of what is left. */
export function shareBudget(lengths: readonly number[], budget: number): number[] {
  const shares = lengths.map(() => 0);
  const order = lengths.map((length, index) => ({ length, index })).sort((a, b) => a.length - b.length);
  let remaining = budget;
  order.forEach(({ length, index }, position) => {
    const share = Math.floor(remaining / (order.length - position));
    shares[index] = Math.min(length, share);
    remaining -= shares[index] as number;
  });
  return shares;
}

const OPENERS = [
  /^(?:final answer|answer)\s*:\s*/i,
  // each optional word takes the space after it: three adjacent `\s*` backtracked cubically on a run of spaces
  /^(?:based on|according to|from|given|using|looking at)\s+(?:(?:the|these|this|my|your)\s*)?(?:(?:tool|search|api)\s*)?(?:results?|data|information|observations?|outputs?|responses?|context|above)[^,.:]{0,40}[,:]\s*/i,
  /^(?:the\s+)?(?:tool\s+)?(?:results?|data|outputs?)\s+(?:show|shows|indicate|indicates|say|says|suggest|suggests)(?:\s+that)?\s*[,:]?\s*/i,
];
// `(?<!\s)`: a match starts where a run of spaces starts (where it would anyway), not at each space of the run.
const NOTE_PARENTHETICAL =
  /(?<!\s)\s*\((?:note|notes|nb|based on|according to|from the|source|see|as per|this is|which|i |i'|assuming|if |per |using|via|#E\d)[^()]*\)/gi;

export function cleanAnswer(text: string): string {
  let answer = text.trim();
  for (let changed = true; changed; ) {
    const before = answer;
    for (const opener of OPENERS) answer = answer.replace(opener, "");
    changed = answer !== before;
  }
  answer = answer
    .replace(NOTE_PARENTHETICAL, "")
    .replace(/(?<!\s)\s+([.,;:!?])/g, "$1")
    .replace(/[ \t]+/g, " ")
    .trim();
  answer = dropCutOffSentence(answer);
  return answer.charAt(0).toUpperCase() + answer.slice(1);
}

/** The last sentence without closing punctuation was cut off by the token limit — unless it is the only one. */
function dropCutOffSentence(text: string): string {
  if (/[.!?…"'”)\]`]$/.test(text)) return text;
  const lastEnd = Math.max(...[". ", "! ", "? ", ".\n", "!\n", "?\n"].map((mark) => text.lastIndexOf(mark)));
  return lastEnd > 0 ? text.slice(0, lastEnd + 1).trim() : text;
}
