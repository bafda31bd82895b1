/**
 * What a model with a context window of N tokens reads of a request (tokens estimated at 4 characters
 * each, as usage.ts counts them). A completion prompt that does not fit is read from its tail, as
 * Ollama cuts a prompt from the front. A chat that does not fit loses its oldest messages first (never
 * the system messages or the last one), as Ollama's chat does; then the tools, first listed first; then
 * the front of what is left of the last message.
 */
import { cached } from "../../memo.ts";
import type { ChatMessage, ChatTool } from "../types.ts";
import type { SimRequest } from "./reading.ts";

export const CHARS_PER_TOKEN = 4;

/** A tool's size in the prompt, as JSON; the same tool objects come with every request, so measured once. */
const toolSizes = new WeakMap<ChatTool, number>();

export function toolChars(tool: ChatTool): number {
  return cached(toolSizes, tool, () => JSON.stringify(tool).length);
}

/** A chat's size in characters: its messages' text and its tools' JSON, one separator between parts. */
export function chatChars(messages: readonly ChatMessage[], tools: readonly ChatTool[] = []): number {
  const parts = [...messages.map((message) => message.content.length), ...tools.map(toolChars)];
  return parts.reduce((sum, chars) => sum + chars, Math.max(0, parts.length - 1));
}

/** The part of the request a model with `windowTokens` of context reads; the request itself when it fits. */
export function fitContextWindow(request: SimRequest, windowTokens: number): SimRequest {
  const budget = windowTokens * CHARS_PER_TOKEN;
  if (request.kind === "complete") {
    return request.prompt.length <= budget ? request : { ...request, prompt: request.prompt.slice(-budget) };
  }
  let messages = [...request.messages];
  let tools = [...(request.tools ?? [])];
  if (chatChars(messages, tools) <= budget) return request;
  const last = messages.length - 1;
  const droppable = messages.flatMap((message, index) =>
    message.role !== "system" && index !== last ? [message] : [],
  );
  for (const message of droppable) {
    if (chatChars(messages, tools) <= budget) break;
    messages = messages.filter((kept) => kept !== message);
  }
  while (tools.length > 0 && chatChars(messages, tools) > budget) tools = tools.slice(1);
  const over = chatChars(messages, tools) - budget;
  const final = messages[messages.length - 1];
  if (over > 0 && final) {
    messages = [
      ...messages.slice(0, -1),
      { ...final, content: final.content.slice(Math.min(over, final.content.length)) },
    ];
  }
  return { ...request, messages, ...(request.tools ? { tools } : {}) };
}
