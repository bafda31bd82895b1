/**
 * The context window as Ollama applies it. The window is the request's `num_ctx` (Ollama's API only),
 * else the server's default, capped at the model's trained length. A conversation that does not fit
 * first loses whole messages from the front (system messages and the last message always stay); what
 * still does not fit is cut token by token from the FRONT of the rendered prompt — system prompt first,
 * then the tool list, then the oldest messages — and `prompt_eval_count` is then exactly the window.
 * The answer is still 200 with a normal done_reason: nothing tells the client.
 *
 * The rendered prompt the stand-in counts: system messages, then one JSON line per tool, then every
 * other message as `role: content` (assistant tool calls as JSON after it), joined by newlines.
 */

import { callsText, messageText, renderPrompt, toolText } from "../../src/models/prompt-text.ts";
import type { ChatMessage, ChatTool } from "../../src/models/types.ts";
import type { StandinInput } from "./request.ts";
import { charsOf, estimateTokens } from "./tokens.ts";

export interface Fitted {
  /** What the model sees: the input, cut to the window. */
  input: StandinInput;
  /** `prompt_eval_count`: the window when cut, else the rendered prompt's tokens. */
  promptTokens: number;
}

/** The rendered prompt's tokens: `prompt_eval_count` of a prompt that fits, and what the tokenizer endpoints count. */
export function promptTokensOf(input: StandinInput): number {
  return estimateTokens(renderPrompt(input));
}

/** The window a request gets: its num_ctx or the default, never above the model's trained length. */
export function windowOf(numCtx: number | undefined, defaultNumCtx: number, contextLength: number): number {
  return Math.min(numCtx ?? defaultNumCtx, contextLength);
}

export function fitToWindow(input: StandinInput, window: number): Fitted {
  if (input.kind === "complete") {
    const tokens = promptTokensOf(input);
    if (tokens <= window) return { input, promptTokens: tokens };
    return { input: { kind: "complete", prompt: tailOf(input.prompt, charsOf(window)) }, promptTokens: window };
  }
  const tools = input.tools ?? [];
  const kept = dropOldMessages(input.messages, tools, window);
  const tokens = estimateTokens(renderPrompt({ messages: kept, tools }));
  if (tokens <= window) return { input: { ...input, messages: kept }, promptTokens: tokens };
  return { input: cutFront(kept, tools, charsOf(window)), promptTokens: window };
}

/**
 * Ollama's message-level pass: from the end, keep the messages that fit; system messages (and the tool
 * list) always stay, and so does the last message. Measured piece by piece, rendered once.
 */
function dropOldMessages(messages: readonly ChatMessage[], tools: readonly ChatTool[], window: number): ChatMessage[] {
  const size = (text: string) => text.length + 1; // with its newline
  const fixed =
    messages
      .filter((message) => message.role === "system")
      .reduce((sum, message) => sum + size(messageText(message)), 0) +
    tools.reduce((sum, tool) => sum + size(toolText(tool)), 0);
  let used = fixed - 1;
  let first = messages.length - 1;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index] as ChatMessage;
    if (message.role === "system") continue;
    used += size(messageText(message));
    if (index < messages.length - 1 && used > charsOf(window)) break;
    first = index;
  }
  return messages.filter((message, index) => message.role === "system" || index >= first);
}

interface Piece {
  text: string;
  /** What the tail of this piece becomes when only `chars` of it fit; undefined: nothing survives. */
  tail: (chars: number) => ChatMessage | undefined;
  message?: ChatMessage;
  tool?: ChatTool;
}

/** The rendered prompt, in the order the model reads it. */
function pieces(messages: readonly ChatMessage[], tools: readonly ChatTool[]): Piece[] {
  const messagePiece = (message: ChatMessage): Piece => {
    const calls = callsText(message.toolCalls);
    return {
      text: messageText(message),
      message,
      // A front cut eats the role and the content first; the tool calls at the end go last.
      tail: (chars) => {
        const content = tailOf(message.content, chars - calls.length);
        if (chars >= calls.length) return { ...message, content };
        const { toolCalls: _lost, ...rest } = message;
        return { ...rest, content };
      },
    };
  };
  return [
    ...messages.filter((message) => message.role === "system").map(messagePiece),
    ...tools.map((tool): Piece => ({ text: toolText(tool), tool, tail: () => undefined })),
    ...messages.filter((message) => message.role !== "system").map(messagePiece),
  ];
}

/** Keeps the last `budget` characters of the rendered prompt, as messages and tools again. */
function cutFront(messages: readonly ChatMessage[], tools: readonly ChatTool[], budget: number): StandinInput {
  const all = pieces(messages, tools);
  const keptMessages: ChatMessage[] = [];
  const keptTools: ChatTool[] = [];
  let left = budget;
  for (let index = all.length - 1; index >= 0 && left > 0; index -= 1) {
    const piece = all[index] as Piece;
    const separator = index > 0 ? 1 : 0;
    if (piece.text.length + separator <= left) {
      left -= piece.text.length + separator;
      if (piece.message) keptMessages.unshift(piece.message);
      if (piece.tool) keptTools.unshift(piece.tool);
      continue;
    }
    const tail = piece.tail(left);
    if (tail) keptMessages.unshift(tail);
    left = 0;
  }
  return { kind: "chat", messages: keptMessages, ...(keptTools.length > 0 ? { tools: keptTools } : {}) };
}

/** The last `chars` characters (none for chars <= 0). */
function tailOf(text: string, chars: number): string {
  return chars <= 0 ? "" : text.slice(-chars);
}
