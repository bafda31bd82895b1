/**
 * The harness's rendering of a request as one text: what a server's prompt cache (Ollama's and
 * llama.cpp's KV-cache reuse of the longest common prefix with the slot's previous request) compares,
 * and what the harness measures a prompt by. A completion is its prompt; a chat is its system messages,
 * then one JSON line per tool, then every other message as `role: content` (assistant tool calls as
 * JSON after it), joined by newlines — the order a chat template lays them out, so the tool list sits
 * before the conversation. The stand-in (mock-servers/ollama/render.ts) renders with code of its own;
 * test/contract/mock-servers/ollama/render.test.ts holds the two to the same text.
 */

import { PROMPT_SEPARATOR, type PromptRenderer } from "./prompt-size.ts";
import type { ChatMessage, ChatTool, NativeToolCall } from "./types.ts";

/** What a request puts before the model. */
export type PromptInput = { prompt: string } | { messages: readonly ChatMessage[]; tools?: readonly ChatTool[] };

export function renderPrompt(input: PromptInput): string {
  if ("prompt" in input) return input.prompt;
  const tools = input.tools ?? [];
  return [
    ...input.messages.filter((message) => message.role === "system").map(messageText),
    ...tools.map(toolText),
    ...input.messages.filter((message) => message.role !== "system").map(messageText),
  ].join(PROMPT_SEPARATOR);
}

/** The characters a request puts in the prompt: its rendered length. */
export function promptChars(input: {
  prompt?: string;
  messages?: readonly ChatMessage[];
  tools?: readonly ChatTool[];
}): number {
  if (input.prompt !== undefined) return input.prompt.length;
  return renderPrompt({ messages: input.messages ?? [], ...(input.tools ? { tools: input.tools } : {}) }).length;
}

/**
 * What stays in a slot's cache after a request: the prompt and the answer after it (a chat's answer
 * after the assistant turn's marker), so the next turn of the same conversation reuses both.
 */
export function cachedAfter(input: PromptInput, prompt: string, output: string): string {
  return "prompt" in input ? prompt + output : `${prompt}\nassistant: ${output}`;
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

/** The harness's rendering, piece by piece, for `fitToWindow`. */
export const promptRenderer: PromptRenderer = {
  message: messageText,
  calls: (message) => callsText(message.toolCalls),
  tool: toolText,
};
