/**
 * BFCL v4 multi-turn entries as the conversation runner's items (`--dataset bfcl:multi_turn_base`):
 * one turn per BFCL turn, its user text as BFCL's inference sends it, its gold the ground truth's
 * calls. A turn whose question is empty is where miss_func offers its held-back functions; BFCL then
 * sends its fixed FC-mode prompt, and so do we. The simulator's gold holds the ground truth's own
 * values (`literalArgs`), found by a turn's user text in the history.
 */

import type { ConversationItem, ConversationKind, ConversationTurnSpec } from "../../bench/dataset/types.ts";
import { expectedForm } from "../../gold-value.ts";
import type { SimGoldItem } from "../../models/sim/gold.ts";
import { evaluate } from "../../python/evaluate.ts";
import { parseExpression } from "../../python/parser.ts";
import { toJson } from "../../python/value.ts";
import { BfclInputError } from "../errors.ts";
import { DEFAULT_BFCL_V4_DATA_DIR } from "../paths.ts";
import {
  isMultiTurnCategory,
  MULTI_TURN_CATEGORIES,
  type MultiTurnCategory,
  type MultiTurnEntry,
  readCategory,
} from "./entries.ts";
import { ENVIRONMENTS, isEnvironmentName } from "./registry.ts";

/** BFCL's DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC: the user turn where held-back functions appear. */
export const ADDITIONAL_FUNCTION_PROMPT = "I have updated some more functions you can choose from. What about now?";

export const MULTI_TURN_TAG = "bfcl-multi-turn";

/** The closest design of this project's conversations, for the per-kind figures. */
const KIND: Record<MultiTurnCategory, ConversationKind> = {
  multi_turn_base: "follow_up",
  multi_turn_miss_func: "follow_up",
  multi_turn_miss_param: "clarify",
  multi_turn_long_context: "long",
};

/** One multi-turn entry with its ground truth (per turn, the call texts) and its conversation item. */
export interface MultiTurnConversation {
  readonly category: MultiTurnCategory;
  readonly entry: MultiTurnEntry;
  readonly truth: readonly (readonly string[])[];
  readonly conversation: ConversationItem;
}

/** The user text of a turn: its messages' contents, or BFCL's prompt where the question is empty. */
export function turnText(entry: MultiTurnEntry, turn: number): string {
  const messages = entry.turns[turn] ?? [];
  if (messages.length === 0) return ADDITIONAL_FUNCTION_PROMPT;
  return messages.map((message) => message.content).join("\n");
}

const paramNames = new Map<string, ReadonlyMap<string, readonly string[]>>();

/** An environment's methods → their parameter names, in signature order (read once per class). */
function methodParams(environment: string): ReadonlyMap<string, readonly string[]> {
  let params = paramNames.get(environment);
  if (!params) {
    const instance = isEnvironmentName(environment) ? ENVIRONMENTS[environment].create() : undefined;
    params = new Map([...(instance?.methods ?? [])].map(([name, m]) => [name, m.params.map((p) => p.name)]));
    paramNames.set(environment, params);
  }
  return params;
}

/**
 * A ground-truth call text (`cd(folder='document')`, or `sort('report.pdf')`) → the tool and its
 * arguments by name as JSON values; a positional argument is named by the method's signature in the
 * entry's environments (a later class's method of the same name wins, as when BFCL executes it).
 */
export function truthCall(
  text: string,
  environments: readonly string[],
): { tool: string; args: Record<string, unknown> } {
  const bad = (what: string) =>
    new BfclInputError("BFCL_BAD_GROUND_TRUTH", `ground truth ${text}: ${what}`, { context: { call: text } });
  const node = parseExpression(text);
  if (node.type !== "Call" || node.func.type !== "Name") throw bad("not a call");
  const tool = node.func.id;
  const params = environments.map((name) => methodParams(name).get(tool)).findLast((found) => found !== undefined);
  if (!params) throw bad(`no method ${tool} in ${environments.join(", ")}`);
  const args: Record<string, unknown> = {};
  for (const [index, arg] of node.args.entries()) {
    const name = params[index];
    if (name === undefined || arg.type === "Starred") throw bad(`positional argument ${index + 1} has no parameter`);
    args[name] = toJson(evaluate(arg));
  }
  for (const keyword of node.keywords) {
    if (keyword.arg === null) throw bad("**kwargs");
    args[keyword.arg] = toJson(evaluate(keyword.value));
  }
  return { tool, args };
}

export function multiTurnConversation(
  category: MultiTurnCategory,
  entry: MultiTurnEntry,
  truth: readonly (readonly string[])[],
): ConversationItem {
  const turns: ConversationTurnSpec[] = entry.turns.map((_, turn) => ({
    user: turnText(entry, turn),
    // the dataset's form (alternatives) for the bench's figures; BFCL's checker grades the turn
    calls: (truth[turn] ?? [])
      .map((call) => truthCall(call, entry.involvedClasses))
      .map((call) => ({
        tool: call.tool,
        args: Object.fromEntries(Object.entries(call.args).map(([k, v]) => [k, expectedForm(v)])),
      })),
    order: "sequence",
  }));
  return {
    id: entry.id,
    category: "conversation",
    kind: KIND[category],
    servers: [...entry.involvedClasses],
    turns,
    tags: [MULTI_TURN_TAG, `bfcl:${category}`],
  };
}

/** The simulator's entries: one per turn, with the ground truth's values as they are. */
export function multiTurnGold(item: MultiTurnConversation): SimGoldItem[] {
  return item.conversation.turns.map((turn, index) => {
    const calls = (item.truth[index] ?? []).map((call) => truthCall(call, item.entry.involvedClasses));
    return {
      id: `${item.entry.id}#${index + 1}`,
      query: turn.user,
      category: calls.length === 0 ? "clarify" : calls.length === 1 ? "single" : "multi",
      route: calls.length === 0 ? "direct" : "rewoo",
      calls,
      literalArgs: true,
      order: "sequence",
      servers: item.conversation.servers,
      turnOf: item.entry.id,
      turnIndex: index + 1,
    };
  });
}

/** Every entry of the categories, in file order, with its ground truth and conversation item. */
export function loadMultiTurnConversations(
  categories: readonly MultiTurnCategory[],
  dataDir = DEFAULT_BFCL_V4_DATA_DIR,
): MultiTurnConversation[] {
  return categories.flatMap((category) => {
    const { entries, groundTruth } = readCategory(dataDir, category);
    return entries.map((entry) => {
      const truth = groundTruth.get(entry.id);
      if (!truth || truth.length !== entry.turns.length)
        throw new BfclInputError(
          "BFCL_BAD_GROUND_TRUTH",
          `${category}: ${entry.id}: ${truth ? `${truth.length} ground-truth turns for ${entry.turns.length}` : "no ground truth"}`,
          { context: { category, id: entry.id } },
        );
      return { category, entry, truth, conversation: multiTurnConversation(category, entry, truth) };
    });
  });
}

/** `bfcl:multi_turn` names the four categories at once. */
const ALL_MULTI_TURN = "multi_turn";

/**
 * The multi-turn categories a `--dataset bfcl:…` names (`bfcl:multi_turn` = all four), or undefined
 * when it names none. Multi-turn categories run as conversations: naming them with single-turn ones,
 * or with dataset files, is an error that says so.
 */
export function multiTurnCategoriesOf(paths: readonly string[]): MultiTurnCategory[] | undefined {
  const named = paths.flatMap((path) =>
    path.startsWith("bfcl:")
      ? path
          .slice("bfcl:".length)
          .split(",")
          .map((category) => category.trim())
      : [],
  );
  const multi = named.flatMap((category) =>
    category === ALL_MULTI_TURN ? [...MULTI_TURN_CATEGORIES] : isMultiTurnCategory(category) ? [category] : [],
  );
  if (multi.length === 0) return undefined;
  const others = [
    ...named.filter((category) => category !== ALL_MULTI_TURN && !isMultiTurnCategory(category)),
    ...paths.filter((path) => !path.startsWith("bfcl:")),
  ];
  if (others.length > 0)
    throw new BfclInputError(
      "BFCL_BAD_SPEC",
      `--dataset: BFCL multi-turn categories run as conversations, apart from ${others.join(", ")}: run them in two commands`,
      { context: { dataset: paths.join(" ") } },
    );
  return [...new Set(multi)];
}
