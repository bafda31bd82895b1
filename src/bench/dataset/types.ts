/**
 * A labeled dataset item (DESIGN §7): the contract between the dataset files, the dataset check,
 * the simulator (which answers from these gold labels), the bench's scorer and the BFCL importer.
 * `datasets/schema.json` says the same in JSON Schema; every load validates against it.
 */

export type Category = "direct" | "single" | "sequence" | "parallel" | "exploratory" | "irrelevant" | "missing_info";

export const CATEGORIES: readonly Category[] = [
  "direct",
  "single",
  "sequence",
  "parallel",
  "exploratory",
  "irrelevant",
  "missing_info",
];

/** The route the router should pick (lowercase, as in the dataset files). */
export type ExpectedRoute = "direct" | "rewoo" | "react";

export type Difficulty = "easy" | "medium" | "hard";

/**
 * One expected tool call. `args` maps a parameter to its acceptable values in BFCL's form, matched by
 * src/bench/scoring/arg-match.ts (`matchJsonArgs`):
 * - a plain value: that value (to expect an array value, wrap it: `[["bug", "ui"]]`);
 * - an array: a list of alternatives; `""` among them means the parameter may be omitted;
 * - `{"regex": "…"}` (unanchored, on a string) and `{"any": true}` for free text, as alternatives.
 * The GOLD value — what the gold replay sends and the simulator's oracle writes — is the first
 * alternative that is neither `""` nor a `{regex}` / `{any}` object; a parameter whose only
 * alternatives are `""` and extensions is omitted from the gold call.
 */
export interface ExpectedCall {
  tool: string;
  args: Record<string, unknown>;
}

/** An end-state check run through a mock server's hidden `__check` tool after the query. */
export interface NamedStateCheck {
  server: string;
  /** The check's name, e.g. `issue_exists` (see each server's checks.ts). */
  expect: string;
  args: Record<string, unknown>;
  /** The check must FAIL (e.g. nothing was posted, the file was not deleted). */
  negate?: boolean;
}

/** What a tool-call check's result must show; every given part must hold. */
export interface ToolResultExpectation {
  /** Case-sensitive substrings of the result text (every one must appear). */
  contains?: string | string[];
  /** Deep-equal to the result's structuredContent (or its text parsed as JSON). */
  equals?: unknown;
  /** A JSONPath into the result's JSON; with `value`, the first match must deep-equal it, else a match must exist. */
  jsonpath?: string;
  value?: unknown;
  /** An unanchored regular expression the result text must match. */
  regex?: string;
}

/**
 * An end-state check on any server: a read-only tool called after the query, on the same (not yet reset)
 * server, and its result matched against `expect`.
 */
export interface ToolCallStateCheck {
  call: { server: string; tool: string; args: Record<string, unknown> };
  expect: ToolResultExpectation;
  /** The expectation must NOT hold. */
  negate?: boolean;
}

export type StateCheckSpec = NamedStateCheck | ToolCallStateCheck;

/** Checks on the final answer text; every given part must hold. Strings compare case-insensitively. */
export interface AnswerCheck {
  /** Every one of these must appear. */
  contains?: string[];
  /** At least one of these must appear. */
  anyOf?: string[];
  /** None of these may appear. */
  notContains?: string[];
  /** An unanchored, case-insensitive regular expression the answer must match. */
  regex?: string;
}

export interface DatasetItem {
  /** Unique across all dataset files, e.g. `gh-014`. */
  id: string;
  query: string;
  category: Category;
  /** Servers whose tools the right answer uses (for `direct`/`irrelevant`: the servers connected). */
  servers: string[];
  route: ExpectedRoute;
  /** The gold calls. Empty for `direct`, `irrelevant` and `missing_info`. */
  calls: ExpectedCall[];
  /** `sequence`: calls must happen in this order (later ones use earlier results); `any`: any order. */
  order: "sequence" | "any";
  state?: StateCheckSpec[];
  answer?: AnswerCheck;
  /**
   * Tools that must NOT be called: for `missing_info`, the tool that would need the absent value
   * (look-ups are allowed); for `irrelevant`, every call fails the item whatever this says.
   */
  forbidden?: string[];
  /** `missing_info`: the required parameters the query does not give. */
  missing?: string[];
  difficulty: Difficulty;
  /** `write` for items that change state, `skill:github` …, `typo`, `cross-server`, `lookup` … */
  tags: string[];
  /** Restricts the tools offered to these names (BFCL items carry their own function set). */
  tools?: string[];
  /** Earlier messages before the query (a system prompt), as BFCL questions sometimes have. */
  messages?: { role: string; content: string }[];
}

/** An item with where it came from, so every later error can name file:line. */
export interface LoadedItem {
  item: DatasetItem;
  file: string;
  line: number;
}

// ─── conversations ─────────────────────────────────────────────────────────────────────────────

/** How a conversation was designed (datasets/README.md "Conversations"). */
export type ConversationKind = "follow_up" | "clarify" | "correct" | "switch" | "long";

export const CONVERSATION_KINDS: readonly ConversationKind[] = ["follow_up", "clarify", "correct", "switch", "long"];

/** `ask`: a value is missing from the turn; the right move is to ask, and the scripted user replies. */
export interface TurnAsk {
  reply: string;
  /** The missing parameters (what the question is about). */
  missing?: string[];
}

/**
 * One user turn and its gold. On an `ask` turn the gold `calls` are the ones to make after the reply.
 * Every turn is gradeable: by calls, state or answer (the schema requires one).
 */
export interface ConversationTurnSpec {
  user: string;
  calls: ExpectedCall[];
  /** Default `any`. */
  order?: "sequence" | "any";
  answer?: AnswerCheck;
  state?: StateCheckSpec[];
  forbidden?: string[];
  ask?: TurnAsk;
}

/** A dataset line with `turns` instead of `query`: the turns run in order on shared server state. */
export interface ConversationItem {
  id: string;
  category: "conversation";
  kind: ConversationKind;
  servers: string[];
  turns: ConversationTurnSpec[];
  difficulty?: Difficulty;
  tags?: string[];
}

export interface LoadedConversation {
  conversation: ConversationItem;
  file: string;
  line: number;
}

export function isConversation(value: DatasetItem | ConversationItem): value is ConversationItem {
  return value.category === "conversation";
}

/**
 * One turn seen as a single-turn item, so the single-turn scorer, gold replay and simulator read it:
 * id `<conversation>#<n>` (1-based), the query is the user's text.
 */
export function turnAsItem(conversation: ConversationItem, index: number): DatasetItem {
  const turn = conversation.turns[index] as ConversationTurnSpec;
  const order = turn.order ?? "any";
  return {
    id: turnItemId(conversation.id, index),
    query: turn.user,
    category: turnCategory(turn.calls.length, order),
    servers: conversation.servers,
    route: turn.calls.length === 0 ? "direct" : "rewoo",
    calls: turn.calls,
    order,
    ...(turn.state ? { state: turn.state } : {}),
    ...(turn.answer ? { answer: turn.answer } : {}),
    ...(turn.forbidden ? { forbidden: turn.forbidden } : {}),
    difficulty: conversation.difficulty ?? "medium",
    tags: [...(conversation.tags ?? []), `conversation:${conversation.kind}`],
  };
}

/**
 * The item a conversation's task leases its servers for, and the one the filter and the summary read:
 * its first turn's item, named by the conversation.
 */
export function conversationSessionItem(conversation: ConversationItem): DatasetItem {
  return { ...turnAsItem(conversation, 0), id: conversation.id };
}

export function turnItemId(conversationId: string, index: number): string {
  return `${conversationId}#${index + 1}`;
}

function turnCategory(calls: number, order: "sequence" | "any"): Category {
  if (calls === 0) return "direct";
  if (calls === 1) return "single";
  return order === "sequence" ? "sequence" : "parallel";
}
