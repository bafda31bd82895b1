/**
 * The stand-in's own chat template: how it lays out what it receives as one prompt text, the text its
 * window, token counts, prompt cache and tokenizer endpoints work on. Written here, not imported from
 * the harness (src/models/prompt-text.ts), so that an error in either rendering shows as a mismatch in
 * an end-to-end test (test/contract/mock-servers/ollama/render.test.ts) instead of being shared.
 *
 * The layout: system messages, then one line per tool (`{"type":"function","function":{…}}`), then
 * every other message as `role: content`, an assistant's tool calls as a JSON array on a line after it;
 * one newline between parts. After an answer, a slot's cache holds the prompt, then (for a chat) a line
 * `assistant: ` and the answer.
 */

import type { PromptRenderer } from "../../src/models/prompt-size.ts";
import type { ChatMessage, ChatTool, NativeToolCall } from "../../src/models/types.ts";
import type { StandinInput } from "./request.ts";

/** An assistant's tool calls as the prompt (and a slot's cache, after an answer's text) holds them. */
export function toolCallsLine(calls: readonly NativeToolCall[] | undefined): string {
  if (calls === undefined || calls.length === 0) return "";
  const listed = calls.map(({ name, arguments: args }) => ({ name, arguments: args }));
  return `\n${JSON.stringify(listed)}`;
}

function messageLine(message: ChatMessage): string {
  return `${message.role}: ${message.content}${toolCallsLine(message.toolCalls)}`;
}

function toolLine(tool: ChatTool): string {
  return JSON.stringify({ type: "function", function: tool });
}

/** The stand-in's template, piece by piece, for the shared window model (src/models/prompt-size.ts). */
export const standinRenderer: PromptRenderer = {
  message: messageLine,
  calls: (message) => toolCallsLine(message.toolCalls),
  tool: toolLine,
};

/** The prompt text the model reads. */
export function renderStandinPrompt(input: StandinInput): string {
  if (input.kind === "complete") return input.prompt;
  let text = "";
  const append = (line: string) => {
    text = text === "" ? line : `${text}\n${line}`;
  };
  for (const message of input.messages) if (message.role === "system") append(messageLine(message));
  for (const tool of input.tools ?? []) append(toolLine(tool));
  for (const message of input.messages) if (message.role !== "system") append(messageLine(message));
  return text;
}

/** What a slot's cache holds after answering: the prompt, then the answer (a chat's after its assistant marker). */
export function cachedAfterAnswer(input: StandinInput, prompt: string, answer: string): string {
  return input.kind === "complete" ? prompt + answer : `${prompt}\nassistant: ${answer}`;
}
