/**
 * A request as the model reads it, as one text: what a server's prompt cache (Ollama's and llama.cpp's
 * KV-cache reuse of the longest common prefix with the slot's previous request) compares. A completion
 * is its prompt; a chat is its system messages, then one JSON line per tool, then every other message
 * as `role: content` (assistant tool calls as JSON after it), joined by newlines — the order a chat
 * template lays them out, so the tool list sits before the conversation. The stand-in
 * (mock-servers/ollama) renders and caches with these same functions, so what the harness records as
 * shared is what the stand-in reuses.
 *
 * Tokens are estimated at 4 characters each (`Math.ceil(chars / 4)`), the stand-in's arithmetic.
 */

import type { ChatMessage, ChatTool, NativeToolCall } from "./types.ts";

export const CHARS_PER_TOKEN = 4;

/** Tokens of a text: `Math.ceil(chars / 4)`. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Whole tokens held by the first `chars` characters of a text (a partly shared token is not reused). */
export function wholeTokens(chars: number): number {
  return Math.floor(chars / CHARS_PER_TOKEN);
}

/** What a request puts before the model. */
export type PromptInput = { prompt: string } | { messages: readonly ChatMessage[]; tools?: readonly ChatTool[] };

export function renderPrompt(input: PromptInput): string {
  if ("prompt" in input) return input.prompt;
  const tools = input.tools ?? [];
  return [
    ...input.messages.filter((message) => message.role === "system").map(messageText),
    ...tools.map(toolText),
    ...input.messages.filter((message) => message.role !== "system").map(messageText),
  ].join("\n");
}

/**
 * What stays in a slot's cache after a request: the prompt and the answer after it (a chat's answer
 * after the assistant turn's marker), so the next turn of the same conversation reuses both.
 */
export function cachedAfter(input: PromptInput, prompt: string, output: string): string {
  return "prompt" in input ? prompt + output : `${prompt}\nassistant: ${output}`;
}

/** Characters two texts share from their start. */
export function sharedPrefixChars(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let index = 0;
  while (index < length && a.charCodeAt(index) === b.charCodeAt(index)) index += 1;
  return index;
}

export function messageText(message: ChatMessage): string {
  return `${message.role}: ${message.content}${callsText(message.toolCalls)}`;
}

export function toolText(tool: ChatTool): string {
  return JSON.stringify({ type: "function", function: tool });
}

export function callsText(calls: readonly NativeToolCall[] | undefined): string {
  if (!calls?.length) return "";
  return `\n${JSON.stringify(calls.map((call) => ({ name: call.name, arguments: call.arguments })))}`;
}
