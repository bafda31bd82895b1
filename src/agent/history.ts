/**
 * A conversation's earlier turns as each configuration reads them. `runAgent(query, { history })` gets
 * the turns before `query`; every pipeline turns them into what its prompt or API expects:
 *
 * - `history: answers` (OnsetLab's playground, `routes/chat.py`): the last 6 messages (3 exchanges) as
 *   `USER:` / `ASSISTANT:` lines, the answers only — no tool results — given to the router's intent
 *   check, the planner's CONTEXT section (before the skill rules), the solver and the ReAct prompts.
 * - `history: results` (this project): every earlier turn with its tool calls and their results, each
 *   result cut to `HISTORY_RESULT_CHARS`, oldest turns dropped whole beyond `limits.historyChars` — or,
 *   with `history_compact: on`, first summarised in one line each (`compactHistory`), so the conversation's
 *   start (the repository named in turn 1, a correction) stays in view.
 * - `native` / `jsonl`: the earlier turns as chat messages (user, assistant tool calls, tool results,
 *   the assistant's answer), so a server's prompt cache can serve them from one turn to the next.
 * - ReAct: the earlier turns as finished Question … Final Answer blocks before the current question.
 */

import type { ChatMessage } from "../models/types.ts";
import { asText, truncate } from "./text.ts";
import { observationText } from "./tool-runner.ts";
import type { AgentResult, HistoryForm, ToolCallRecord } from "./types.ts";

/** Heads the earlier turns in the planner, router, solver and ReAct prompts. */

/** One tool call of an earlier turn and what came back. */
export interface HistoryCall {
  tool: string;
  args: Record<string, unknown>;
  ok: boolean;
  /** The result text, or the error text. */
  text: string;
  /** The structured result, when the server gave one. */
  data?: unknown;
}

/** One earlier turn of a conversation: what the user said, the calls the agent made, its answer. */
export interface ConversationTurn {
  user: string;
  /** Calls in the order they were made; blocked and dry-run calls are left out. */
  calls: HistoryCall[];
  answer: string;
}

/** The turn a finished run adds to its conversation's history. */
export function turnFromResult(result: Pick<AgentResult, "query" | "toolCalls" | "answer">): ConversationTurn {
  return {
    user: result.query,
    calls: result.toolCalls.filter((call) => !call.blocked && !call.dryRun).map(historyCall),
    answer: result.answer,
  };
}

function historyCall(record: ToolCallRecord): HistoryCall {
  return {
    tool: record.tool,
    args: record.args,
    ok: record.ok,
    text: record.text,
    ...(record.data === undefined ? {} : { data: record.data }),
  };
}

/** OnsetLab's playground kept the last 6 messages of the session (`session.messages[-6:]`). */
export const ANSWERS_MESSAGES = 6;
/** Characters of one earlier result in the `results` form. */
export const HISTORY_RESULT_CHARS = 300;

/**
 * The conversation block for the text prompts (router, planner, solver, ReAct), or `undefined` without
 * history. `maxChars` bounds the `results` form; whole turns are dropped, the oldest first.
 */
export function historyText(
  history: readonly ConversationTurn[] | undefined,
  form: HistoryForm,
  maxChars: number,
  compact = false,
): string | undefined {
  if (!history || history.length === 0) return undefined;
  if (form === "answers") {
    const messages = history.flatMap((turn) => [`USER: ${turn.user}`, `ASSISTANT: ${turn.answer}`]);
    return messages.slice(-ANSWERS_MESSAGES).join("\n");
  }
  const blocks = history.map((turn, index) => turnBlock(turn, index + 1));
  if (compact) compactHistory(history, blocks, maxChars);
  let kept = blocks.length;
  let size = blocks.reduce((sum, block) => sum + block.length + 1, 0);
  // The latest turn always stays: it is what a follow-up refers to.
  while (kept > 1 && size > maxChars) {
    size -= (blocks[blocks.length - kept] as string).length + 1;
    kept -= 1;
  }
  return blocks.slice(blocks.length - kept).join("\n");
}

/** Characters of the user's words and of the answer in a summarised turn's line. */
export const SUMMARY_TEXT_CHARS = 80;

/**
 * `history_compact: on`: while the blocks are over `maxChars`, the oldest full turn (never the latest)
 * becomes one line — its words, the tools it called, its answer, each cut short. Summarising the oldest
 * first keeps the recent turns whole and, from one turn to the next, the summarised lines are the same:
 * the prompt's start stays a prefix a server's cache holds until the next turn is summarised.
 */
export function compactHistory(history: readonly ConversationTurn[], blocks: string[], maxChars: number): void {
  const size = () => blocks.reduce((sum, block) => sum + block.length + 1, 0);
  for (let index = 0; index < blocks.length - 1 && size() > maxChars; index++) {
    blocks[index] = summaryLine(history[index] as ConversationTurn, index + 1);
  }
}

function summaryLine(turn: ConversationTurn, number: number): string {
  const tools = turn.calls.map((call) => `${call.tool}${call.ok ? "" : " (failed)"}`).join(", ");
  return `Turn ${number} (summary): user: ${truncate(turn.user, SUMMARY_TEXT_CHARS)}; calls: ${tools || "none"}; answer: ${truncate(turn.answer, SUMMARY_TEXT_CHARS)}`;
}

function turnBlock(turn: ConversationTurn, number: number): string {
  const calls = turn.calls.map(
    (call) =>
      `Turn ${number} call: ${call.tool}(${JSON.stringify(call.args)}) -> ${
        call.ok ? truncate(asText(call.data ?? call.text), HISTORY_RESULT_CHARS) : `ERROR: ${truncate(call.text, 150)}`
      }`,
  );
  return [`Turn ${number} user: ${turn.user}`, ...calls, `Turn ${number} answer: ${turn.answer}`].join("\n");
}

/** Ids of earlier calls in chat messages: stable, so the same history gives the same messages. */
function callId(turn: number, call: number): string {
  return `call_t${turn}_${call}`;
}

/** native: the earlier turns as the chat API's own messages (tool calls answered by tool messages). */
export function nativeHistoryMessages(history: readonly ConversationTurn[], observationChars: number): ChatMessage[] {
  return history.flatMap((turn, t) => {
    const messages: ChatMessage[] = [{ role: "user", content: turn.user }];
    if (turn.calls.length > 0) {
      messages.push({
        role: "assistant",
        content: "",
        toolCalls: turn.calls.map((call, c) => ({ id: callId(t + 1, c + 1), name: call.tool, arguments: call.args })),
      });
      turn.calls.forEach((call, c) => {
        messages.push({
          role: "tool",
          content: observationText(call, observationChars, turn.user),
          toolName: call.tool,
          toolCallId: callId(t + 1, c + 1),
        });
      });
    }
    messages.push({ role: "assistant", content: turn.answer });
    return messages;
  });
}

/** jsonl: the earlier turns in the protocol's own lines (tool_call, observation, final_answer). */
export function jsonlHistoryMessages(history: readonly ConversationTurn[], observationChars: number): ChatMessage[] {
  return history.flatMap((turn) => {
    const messages: ChatMessage[] = [{ role: "user", content: turn.user }];
    if (turn.calls.length > 0) {
      messages.push({
        role: "assistant",
        content: turn.calls
          .map((call) => JSON.stringify({ type: "tool_call", name: call.tool, arguments: call.args }))
          .join("\n"),
      });
      messages.push({
        role: "user",
        content: turn.calls
          .map((call) =>
            JSON.stringify({
              type: "observation",
              name: call.tool,
              ok: call.ok,
              content: observationText(call, observationChars, turn.user),
            }),
          )
          .join("\n"),
      });
    }
    messages.push({ role: "assistant", content: JSON.stringify({ type: "final_answer", content: turn.answer }) });
    return messages;
  });
}

/** ReAct: each earlier turn as a finished transcript, written in the JSON protocol's format. */
export function reactHistoryText(history: readonly ConversationTurn[], observationChars: number): string {
  return history
    .map((turn) => {
      const steps = turn.calls.map(
        (call) =>
          `Action: ${call.tool}\nAction Input: ${JSON.stringify(call.args)}\nObservation: ${observationText(call, observationChars, turn.user)}`,
      );
      return [`Question: ${turn.user}`, ...steps, `Final Answer: ${turn.answer}`].join("\n");
    })
    .join("\n\n");
}

/** `history_filter: on`: the filter also reads the latest earlier user turns, where a follow-up's subject is. */
export const FILTER_HISTORY_TURNS = 2;

/** The text the tool filter ranks against. */
export function filterText(query: string, history: readonly ConversationTurn[] | undefined, on: boolean): string {
  if (!on || !history || history.length === 0) return query;
  return [query, ...history.slice(-FILTER_HISTORY_TURNS).map((turn) => turn.user)].join("\n");
}
