/**
 * Prompt size, modelled once: the token estimates, named for what they are for, and the context window
 * as Ollama applies it (`fitToWindow`), which the simulator and the stand-in Ollama both use. What a
 * prompt looks like is not decided here: each caller passes its own `PromptRenderer` (the harness's in
 * prompt-text.ts, the stand-in's in mock-servers/ollama/render.ts), so a difference between the two
 * renderings shows in an end-to-end test instead of being shared by both sides.
 *
 * Ollama's order (server/prompt.go `chatPrompt`, then the runner's `NewSequence`): a chat that does not
 * fit first loses whole messages from the front — system messages always stay, so does the last
 * message, and a tool result never loses the assistant turn that called it; what still does not fit is
 * cut token by token from the FRONT of the rendered prompt (system prompt first, then the tool list,
 * then the oldest messages), and `prompt_eval_count` is then exactly the window. A completion prompt
 * is cut from its front. Ollama keeps the first `num_keep` tokens (4) through that cut; at 4 characters
 * a token that is 16 characters of the system prompt's header, which this model leaves out.
 */

import type { ChatMessage, ChatTool } from "./types.ts";

/** The nominal characters a token: the simulator's and the stand-in's tokenizer. */
export const CHARS_PER_TOKEN = 4;

/**
 * Tokens from characters. Small models' BPE vocabularies give about 4 characters a token on English
 * prose and 3–3.5 on JSON schemas and code, so a real server's count lies between `low` and `high`.
 */
export const estimateTokens = {
  /** `chars / 3`: what sizes a window, so an `auto` window is never too small. */
  high: (chars: number): number => Math.ceil(chars / 3),
  /** `chars / 5`: a prompt above the window even by this count certainly did not fit. */
  low: (chars: number): number => Math.floor(chars / 5),
  /** `chars / 4`: the simulator's and the stand-in's count, which the harness predicts. */
  nominal: (chars: number): number => Math.ceil(chars / CHARS_PER_TOKEN),
} as const;

/** Whole nominal tokens held by the first `chars` characters of a text (a partly shared token is not reused). */
export function wholeTokens(chars: number): number {
  return Math.floor(chars / CHARS_PER_TOKEN);
}

/** Characters two texts share from their start: what a server's prompt cache reuses. */
export function sharedPrefixChars(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let index = 0;
  while (index < length && a.charCodeAt(index) === b.charCodeAt(index)) index += 1;
  return index;
}

/**
 * How one side renders the parts of a chat prompt. The prompt is laid out as a chat template lays it
 * out: the system messages, then one line per tool, then every other message, joined by `PROMPT_SEPARATOR`.
 * A message's text ends with its content, then its tool calls' text (`calls`), so a front cut eats the
 * header and the content first.
 */
export interface PromptRenderer {
  message(message: ChatMessage): string;
  calls(message: ChatMessage): string;
  tool(tool: ChatTool): string;
}

export const PROMPT_SEPARATOR = "\n";

/** What a window is applied to: a completion prompt or a chat (other fields are kept as they are). */
export type WindowInput =
  | { kind: "complete"; prompt: string }
  | { kind: "chat"; messages: readonly ChatMessage[]; tools?: readonly ChatTool[] };

export interface Fitted<T> {
  /** What the model reads: the input itself when it fits, else the input cut to the window. */
  input: T;
  /** `prompt_eval_count`: the window when cut, else the rendered prompt's nominal tokens. */
  promptTokens: number;
  cut: boolean;
}

export function fitToWindow<T extends WindowInput>(input: T, window: number, render: PromptRenderer): Fitted<T> {
  const budget = window * CHARS_PER_TOKEN;
  if (input.kind === "complete") {
    const tokens = estimateTokens.nominal(input.prompt.length);
    if (tokens <= window) return { input, promptTokens: tokens, cut: false };
    return { input: { ...input, prompt: tailOf(input.prompt, budget) }, promptTokens: window, cut: true };
  }
  const tools = input.tools ?? [];
  const kept = dropOldMessages(input.messages, tools, window, render);
  const tokens = estimateTokens.nominal(renderedChars(kept, tools, render));
  const same = kept.length === input.messages.length;
  if (tokens <= window) return { input: same ? input : { ...input, messages: kept }, promptTokens: tokens, cut: false };
  // the cut decides the tools afresh: those it leaves out are gone from the request
  const { tools: _before, ...rest } = input;
  const cut = { ...rest, ...cutFront(kept, tools, budget, render) } as unknown as T;
  return { input: cut, promptTokens: window, cut: true };
}

/** The rendered prompt's length: its pieces and the separators between them. */
function renderedChars(messages: readonly ChatMessage[], tools: readonly ChatTool[], render: PromptRenderer): number {
  const sizes = [
    ...messages.map((message) => render.message(message).length),
    ...tools.map((tool) => render.tool(tool).length),
  ];
  return sizes.reduce((sum, size) => sum + size, Math.max(0, sizes.length - 1) * PROMPT_SEPARATOR.length);
}

/** Where a conversation may start at message `index`: a tool result starts with the assistant turn that called it. */
function blockStart(messages: readonly ChatMessage[], index: number): number {
  if (messages[index]?.role !== "tool") return index;
  let start = index;
  while (start > 0 && messages[start - 1]?.role === "tool") start -= 1;
  const caller = messages[start - 1];
  return caller?.role === "assistant" && (caller.toolCalls?.length ?? 0) > 0 ? start - 1 : index;
}

/**
 * Ollama's message-level pass: the first start, oldest first, from which the conversation fits (system
 * messages always kept); the last message's block when none does.
 */
function dropOldMessages(
  messages: readonly ChatMessage[],
  tools: readonly ChatTool[],
  window: number,
  render: PromptRenderer,
): readonly ChatMessage[] {
  const from = (start: number) => messages.filter((message, index) => message.role === "system" || index >= start);
  for (let index = 0; index < messages.length; index += 1) {
    const kept = from(blockStart(messages, index));
    if (index === messages.length - 1 || estimateTokens.nominal(renderedChars(kept, tools, render)) <= window) {
      return kept.length === messages.length ? messages : kept;
    }
  }
  return messages;
}

interface Piece {
  text: string;
  message?: ChatMessage;
  tool?: ChatTool;
}

/** The rendered prompt's pieces, in the order the model reads them. */
function pieces(messages: readonly ChatMessage[], tools: readonly ChatTool[], render: PromptRenderer): Piece[] {
  const messagePiece = (message: ChatMessage): Piece => ({ text: render.message(message), message });
  return [
    ...messages.filter((message) => message.role === "system").map(messagePiece),
    ...tools.map((tool): Piece => ({ text: render.tool(tool), tool })),
    ...messages.filter((message) => message.role !== "system").map(messagePiece),
  ];
}

/** What survives of a message when only its last `chars` rendered characters do: the tool calls go last. */
function messageTail(message: ChatMessage, chars: number, render: PromptRenderer): ChatMessage {
  const calls = render.calls(message).length;
  const content = tailOf(message.content, chars - calls);
  if (chars >= calls) return { ...message, content };
  const { toolCalls: _lost, ...rest } = message;
  return { ...rest, content };
}

/** Keeps the last `budget` characters of the rendered prompt, as messages and tools again. */
function cutFront(
  messages: readonly ChatMessage[],
  tools: readonly ChatTool[],
  budget: number,
  render: PromptRenderer,
): { messages: ChatMessage[]; tools?: ChatTool[] } {
  const all = pieces(messages, tools, render);
  const keptMessages: ChatMessage[] = [];
  const keptTools: ChatTool[] = [];
  let left = budget;
  for (let index = all.length - 1; index >= 0 && left > 0; index -= 1) {
    const piece = all[index] as Piece;
    const separator = index > 0 ? PROMPT_SEPARATOR.length : 0;
    if (piece.text.length + separator <= left) {
      left -= piece.text.length + separator;
      if (piece.message) keptMessages.unshift(piece.message);
      if (piece.tool) keptTools.unshift(piece.tool);
      continue;
    }
    if (piece.message) keptMessages.unshift(messageTail(piece.message, left, render));
    left = 0;
  }
  return { messages: keptMessages, ...(keptTools.length > 0 ? { tools: keptTools } : {}) };
}

/** The last `chars` characters (none for chars <= 0). */
function tailOf(text: string, chars: number): string {
  return chars <= 0 ? "" : text.slice(-chars);
}
