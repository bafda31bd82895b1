/**
 * Ollama's REST shapes ⇄ the model interface, both ways: the provider sends with `to…` and reads with
 * `from…`; the stand-in server does the reverse. One mapping, so the two cannot drift apart.
 */

import type { Message, Options, Tool } from "ollama";
import { dropUndefined } from "../json.ts";
import { nsToMs } from "./http.ts";
import { parseToolArguments } from "./tool-arguments.ts";
import type { ChatMessage, ChatTool, GenerationOptions, ModelTimings, ModelUsage, NativeToolCall } from "./types.ts";

/** A tool call on the wire. Ollama ≥ 0.12 adds `id` and `function.index`, which the client's types lack. */
export interface OllamaWireToolCall {
  id?: string;
  function: { index?: number; name: string; arguments: Record<string, unknown> | string };
}

export type OllamaWireMessage = Omit<Message, "tool_calls"> & { tool_calls?: OllamaWireToolCall[] };

/** The duration and count fields of a final /api/generate or /api/chat chunk. */
export interface OllamaMetrics {
  total_duration?: number;
  load_duration?: number;
  prompt_eval_count?: number;
  prompt_eval_duration?: number;
  eval_count?: number;
  eval_duration?: number;
}

export function toOllamaOptions(options: GenerationOptions): Partial<Options> {
  return dropUndefined({
    temperature: options.temperature,
    seed: options.seed,
    num_predict: options.maxTokens,
    num_ctx: options.numCtx,
    stop: options.stop,
  });
}

export function fromOllamaOptions(
  options: Partial<Options> | undefined,
  keepAlive?: string | number,
): GenerationOptions {
  return dropUndefined({
    temperature: options?.temperature,
    seed: options?.seed,
    maxTokens: options?.num_predict,
    numCtx: options?.num_ctx,
    stop: options?.stop,
    keepAlive: keepAlive === undefined ? undefined : String(keepAlive),
  });
}

export function toOllamaMessages(messages: readonly ChatMessage[]): OllamaWireMessage[] {
  return messages.map((message) =>
    dropUndefined({
      role: message.role,
      content: message.content,
      tool_calls: message.toolCalls?.length ? toOllamaToolCalls(message.toolCalls) : undefined,
      tool_name: message.toolName,
    }),
  );
}

export function fromOllamaMessages(messages: readonly OllamaWireMessage[]): ChatMessage[] {
  return messages.map((message) =>
    dropUndefined({
      role: message.role as ChatMessage["role"],
      content: message.content ?? "",
      toolCalls: message.tool_calls?.length ? fromOllamaToolCalls(message.tool_calls) : undefined,
      toolName: message.tool_name,
    }),
  );
}

export function toOllamaToolCalls(calls: readonly NativeToolCall[]): OllamaWireToolCall[] {
  return calls.map((call, index) =>
    dropUndefined({ id: call.id, function: { index, name: call.name, arguments: call.arguments } }),
  );
}

export function fromOllamaToolCalls(calls: readonly OllamaWireToolCall[]): NativeToolCall[] {
  return calls.map((call) =>
    dropUndefined({ id: call.id, name: call.function.name, ...parseToolArguments(call.function.arguments) }),
  );
}

export function toOllamaTools(tools: readonly ChatTool[]): Tool[] {
  return tools.map((tool) => ({
    type: "function",
    function: {
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters as NonNullable<Tool["function"]["parameters"]>,
    },
  }));
}

export function fromOllamaTools(tools: readonly Tool[] | undefined): ChatTool[] {
  return (tools ?? []).map((tool) => ({
    name: tool.function.name ?? "",
    description: tool.function.description ?? "",
    parameters: (tool.function.parameters ?? { type: "object", properties: {} }) as ChatTool["parameters"],
  }));
}

export function ollamaUsage(metrics: OllamaMetrics): ModelUsage {
  return { promptTokens: metrics.prompt_eval_count ?? 0, completionTokens: metrics.eval_count ?? 0 };
}

/** Ollama reports nanoseconds; a missing total falls back to the wall clock the caller measured. */
export function ollamaTimings(metrics: OllamaMetrics, wallMs: number): ModelTimings {
  return dropUndefined({
    totalMs: nsToMs(metrics.total_duration) ?? wallMs,
    loadMs: nsToMs(metrics.load_duration),
    promptEvalMs: nsToMs(metrics.prompt_eval_duration),
    evalMs: nsToMs(metrics.eval_duration),
  });
}
