/**
 * The trace's compact form, and the functions that read it back. A loop protocol (ReAct, native,
 * jsonl) sends the whole conversation again on every turn, a mock tool's text is its data as JSON,
 * and the tool ranking lists every connected tool: stored as is, a record repeats itself (quadratic
 * in the turns). So a record stores each part once and points back at it, losslessly; readers never
 * follow the pointers themselves but call `modelCallRequest`, `toolCallText` and `rankedToolScores`.
 */

import { isDeepStrictEqual } from "node:util";
import { OnsetlabError } from "../errors.ts";
import type { ChatMessage } from "../models/types.ts";
import type { AgentResult, ModelCallRecord, ToolCallRecord, ToolScore } from "./types.ts";

/** A prompt prefix shorter than this is stored again: a `promptFrom` pointer costs about as much. */
const MIN_SHARED_PROMPT = 64;

/** A record's pointer names a call that is not there, or a prefix longer than what it points at. */
export class TraceReferenceError extends OnsetlabError {}

/** A model request exactly as it was sent (fields as in `ChatRequest` / `CompletionRequest`). */
export interface RecordedRequest {
  /** `complete` requests. */
  prompt?: string;
  /** `chat` requests. */
  messages?: ChatMessage[];
  /** Names of the tools offered to a `chat` request. */
  tools?: string[];
}

/** The request of `call`, one of `calls` (a run's `modelCalls`), with every pointer followed. */
export function modelCallRequest(calls: readonly ModelCallRecord[], call: ModelCallRecord): RecordedRequest {
  const prompt = fullPrompt(calls, call);
  const messages = fullMessages(calls, call);
  const tools = fullTools(calls, call);
  return {
    ...(prompt === undefined ? {} : { prompt }),
    ...(messages === undefined ? {} : { messages }),
    ...(tools === undefined ? {} : { tools }),
  };
}

function fullPrompt(calls: readonly ModelCallRecord[], call: ModelCallRecord): string | undefined {
  if (!call.promptFrom) return call.prompt;
  const { seq, chars } = call.promptFrom;
  const base = fullPrompt(calls, earlierCall(calls, call, seq, "promptFrom")) ?? "";
  if (base.length < chars) throw badPrefix(call, "promptFrom", `${chars} characters`, `${base.length}`);
  return base.slice(0, chars) + (call.prompt ?? "");
}

function fullMessages(calls: readonly ModelCallRecord[], call: ModelCallRecord): ChatMessage[] | undefined {
  if (!call.messagesFrom) return call.messages;
  const { seq, count } = call.messagesFrom;
  const base = fullMessages(calls, earlierCall(calls, call, seq, "messagesFrom")) ?? [];
  if (base.length < count) throw badPrefix(call, "messagesFrom", `${count} messages`, `${base.length}`);
  return [...base.slice(0, count), ...(call.messages ?? [])];
}

function fullTools(calls: readonly ModelCallRecord[], call: ModelCallRecord): string[] | undefined {
  if (call.toolsFrom === undefined) return call.tools;
  return fullTools(calls, earlierCall(calls, call, call.toolsFrom, "toolsFrom"));
}

/** Pointers only go back, so following them always ends. */
function earlierCall(calls: readonly ModelCallRecord[], call: ModelCallRecord, seq: number, field: string) {
  const target =
    seq < call.seq ? (calls[seq - 1]?.seq === seq ? calls[seq - 1] : calls.find((c) => c.seq === seq)) : undefined;
  if (!target) {
    throw new TraceReferenceError(
      "TRACE_REFERENCE_INVALID",
      `model call #${call.seq}: ${field} points at call #${seq}, which is not an earlier call of this run`,
      { context: { seq: call.seq, field, target: seq } },
    );
  }
  return target;
}

function badPrefix(call: ModelCallRecord, field: string, wanted: string, found: string): TraceReferenceError {
  return new TraceReferenceError(
    "TRACE_REFERENCE_INVALID",
    `model call #${call.seq}: ${field} takes ${wanted} from a request that has only ${found}`,
    { context: { seq: call.seq, field } },
  );
}

/** A tool call's result text (or error text), also when the record left it out as `JSON.stringify(data)`. */
export function toolCallText(call: Pick<ToolCallRecord, "text" | "data">): string {
  return call.text ?? JSON.stringify(call.data);
}

/** `text` as a record stores it: left out when it is exactly the data as JSON (what the mocks return). */
export function recordedToolText(text: string, data: unknown): Pick<ToolCallRecord, "text"> {
  return data !== undefined && text === JSON.stringify(data) ? {} : { text };
}

/**
 * The ranking as a record stores it (`AgentResult.tools.scores`): the tools that scored above 0, or the
 * first one when none did. The rest scored 0 and, ranked ties keeping the connection order, follow in
 * `tools.available` order: `rankedToolScores` puts them back. An empty list means no ranking was made.
 */
export function recordedToolScores(ranking: readonly ToolScore[]): ToolScore[] {
  const positive = ranking.filter((entry) => entry.score > 0);
  return positive.length > 0 ? positive : ranking.slice(0, 1);
}

/** Every connected tool's score, best first, as the filter ranked them (empty when it did not run). */
export function rankedToolScores(tools: Pick<AgentResult["tools"], "available" | "scores">): ToolScore[] {
  if (tools.scores.length === 0) return [];
  const listed = new Set(tools.scores.map((entry) => entry.name));
  const unlisted = tools.available.filter((name) => !listed.has(name)).map((name) => ({ name, score: 0 }));
  return [...tools.scores, ...unlisted];
}

/**
 * Writes a run's requests as pointers into its earlier ones: a prompt that starts like an earlier
 * prompt, a conversation that continues an earlier one, the same tools offered again. It keeps the
 * requests it has seen (strings are shared, not copied), for the length of one run.
 */
export class RequestCompactor {
  private readonly prompts: { seq: number; prompt: string }[] = [];
  private readonly chats: { seq: number; messages: ChatMessage[]; tools?: readonly string[] }[] = [];

  prompt(seq: number, prompt: string): Pick<ModelCallRecord, "prompt" | "promptFrom"> {
    let best: { seq: number; chars: number } | undefined;
    for (const earlier of this.prompts) {
      const chars = commonPrefixLength(earlier.prompt, prompt);
      if (chars >= MIN_SHARED_PROMPT && chars > (best?.chars ?? 0)) best = { seq: earlier.seq, chars };
    }
    this.prompts.push({ seq, prompt });
    return best ? { prompt: prompt.slice(best.chars), promptFrom: best } : { prompt };
  }

  chat(
    seq: number,
    messages: readonly ChatMessage[],
    tools?: readonly string[],
  ): Pick<ModelCallRecord, "messages" | "messagesFrom" | "tools" | "toolsFrom"> {
    // a copy as sent: the caller goes on appending to its own list
    const sent = messages.map(snapshotMessage);
    let from: { seq: number; count: number } | undefined;
    let toolsFrom: number | undefined;
    for (const earlier of this.chats) {
      const count = sharedMessageCount(earlier.messages, sent);
      if (count > 0 && count >= (from?.count ?? 0)) from = { seq: earlier.seq, count };
      if (tools && earlier.tools && isDeepStrictEqual(earlier.tools, tools)) toolsFrom = earlier.seq;
    }
    this.chats.push({ seq, messages: sent, ...(tools ? { tools } : {}) });
    return {
      messages: from ? sent.slice(from.count) : sent,
      ...(from ? { messagesFrom: from } : {}),
      ...(toolsFrom !== undefined ? { toolsFrom } : tools ? { tools: [...tools] } : {}),
    };
  }
}

/** The message with its own copy of the tool calls; the strings are immutable, so shared. */
function snapshotMessage(message: ChatMessage): ChatMessage {
  return message.toolCalls ? { ...message, toolCalls: structuredClone(message.toolCalls) } : { ...message };
}

function sharedMessageCount(a: readonly ChatMessage[], b: readonly ChatMessage[]): number {
  const limit = Math.min(a.length, b.length);
  let count = 0;
  while (count < limit && isDeepStrictEqual(a[count], b[count])) count += 1;
  return count;
}

/** Compared a block at a time (slices of a flat string are views, not copies), then by character. */
export function commonPrefixLength(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  const block = 256;
  let start = 0;
  while (start + block <= limit && a.startsWith(b.slice(start, start + block), start)) start += block;
  while (start < limit && a.charCodeAt(start) === b.charCodeAt(start)) start += 1;
  return start;
}
