/**
 * OpenAI-compatible shapes (/v1/chat/completions, /v1/completions) ⇄ the model interface, both ways:
 * the `openai` provider sends with `to…` and reads with `from…`; the stand-in server does the reverse.
 */

import { dropUndefined } from "../json.ts";
import type { JsonSchema } from "../tool-protocol/types.ts";
import { parseToolArguments } from "./tool-arguments.ts";
import type { ChatMessage, ChatTool, GenerationOptions, ModelTimings, ModelUsage, NativeToolCall } from "./types.ts";

export interface OpenAIToolCall {
  id?: string;
  /** Present in streamed deltas: fragments of one call share an index. */
  index?: number;
  type?: "function";
  function: { name?: string; arguments?: string };
}

export interface OpenAIMessage {
  role: string;
  content?: string | null;
  tool_calls?: OpenAIToolCall[];
  tool_call_id?: string;
  name?: string;
}

export interface OpenAITool {
  type: "function";
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export interface OpenAIUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

/** llama.cpp server's extra timing block. */
export interface LlamaCppTimings {
  prompt_n?: number;
  prompt_ms?: number;
  predicted_n?: number;
  predicted_ms?: number;
  cache_n?: number;
}

/** The sampling fields of a request body that the model interface knows. */
export interface OpenAISampling {
  temperature?: number;
  max_tokens?: number;
  stop?: string | string[];
  seed?: number;
}

/** `numCtx` and `keepAlive` have no OpenAI equivalent and are not sent. */
export function toOpenAISampling(options: GenerationOptions): OpenAISampling {
  return dropUndefined({
    temperature: options.temperature,
    max_tokens: options.maxTokens,
    stop: options.stop,
    seed: options.seed,
  });
}

export function fromOpenAISampling(body: OpenAISampling): GenerationOptions {
  return dropUndefined({
    temperature: body.temperature,
    maxTokens: body.max_tokens,
    stop: typeof body.stop === "string" ? [body.stop] : body.stop,
    seed: body.seed,
  });
}

export function toOpenAIMessages(messages: readonly ChatMessage[]): OpenAIMessage[] {
  return messages.map((message) =>
    dropUndefined({
      role: message.role,
      content: message.content,
      tool_calls: message.toolCalls?.length ? toOpenAIToolCalls(message.toolCalls) : undefined,
      tool_call_id: message.role === "tool" ? message.toolCallId : undefined,
      name: message.role === "tool" ? message.toolName : undefined,
    }),
  );
}

export function fromOpenAIMessages(messages: readonly OpenAIMessage[]): ChatMessage[] {
  return messages.map((message) =>
    dropUndefined({
      role: message.role as ChatMessage["role"],
      content: message.content ?? "",
      toolCalls: message.tool_calls?.length ? fromOpenAIToolCalls(message.tool_calls) : undefined,
      toolCallId: message.tool_call_id,
      toolName: message.name,
    }),
  );
}

/** Arguments go out as a JSON string; a call whose string never parsed goes back exactly as it came. */
export function toOpenAIToolCalls(calls: readonly NativeToolCall[]): OpenAIToolCall[] {
  return calls.map((call, index) => ({
    id: call.id ?? `call_${index}`,
    type: "function",
    function: { name: call.name, arguments: call.rawArguments ?? JSON.stringify(call.arguments) },
  }));
}

export function fromOpenAIToolCalls(calls: readonly OpenAIToolCall[]): NativeToolCall[] {
  return calls.map((call, index) =>
    dropUndefined({
      id: call.id ?? `call_${index}`,
      name: call.function.name ?? "",
      ...parseToolArguments(call.function.arguments),
    }),
  );
}

export function toOpenAITools(tools: readonly ChatTool[]): OpenAITool[] {
  return tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

export function fromOpenAITools(tools: readonly OpenAITool[] | undefined): ChatTool[] {
  return (tools ?? []).map((tool) => ({
    name: tool.function.name,
    description: tool.function.description ?? "",
    parameters: tool.function.parameters ?? { type: "object", properties: {} },
  }));
}

/** `usage` when the server sent it, else llama.cpp's counts, else zero. */
export function openAIUsage(usage: OpenAIUsage | undefined, timings: LlamaCppTimings | undefined): ModelUsage {
  return {
    promptTokens: usage?.prompt_tokens ?? timings?.prompt_n ?? 0,
    completionTokens: usage?.completion_tokens ?? timings?.predicted_n ?? 0,
  };
}

/** Wall clock for the total; prompt-eval and generation split only where llama.cpp reports it. */
export function openAITimings(timings: LlamaCppTimings | undefined, wallMs: number): ModelTimings {
  return dropUndefined({ totalMs: wallMs, promptEvalMs: timings?.prompt_ms, evalMs: timings?.predicted_ms });
}

/**
 * Streamed tool calls arrive in fragments keyed by `index` (id and name once, arguments in pieces);
 * this joins them back into whole calls, in index order.
 */
export class ToolCallDeltas {
  private readonly calls = new Map<number, { id?: string; name: string; arguments: string }>();

  add(deltas: readonly OpenAIToolCall[]): void {
    deltas.forEach((delta, position) => {
      const index = delta.index ?? position;
      const call = this.calls.get(index) ?? { name: "", arguments: "" };
      if (delta.id) call.id = delta.id;
      if (delta.function.name) call.name += delta.function.name;
      if (delta.function.arguments) call.arguments += delta.function.arguments;
      this.calls.set(index, call);
    });
  }

  finish(): NativeToolCall[] {
    const ordered = [...this.calls].sort(([a], [b]) => a - b);
    return fromOpenAIToolCalls(
      ordered.map(([, call]) =>
        dropUndefined({ id: call.id, function: { name: call.name, arguments: call.arguments } }),
      ),
    );
  }
}

/**
 * Constrained decoding: `response_format: {type: "json_schema", …}`, which vLLM, llama.cpp's server and
 * LM Studio turn into a grammar. A server that ignores the field answers freely (the bench's probe,
 * src/bench/run/constrained-probe.ts, stops such a run before its first item).
 */
export function toOpenAIResponseFormat(schema: JsonSchema | undefined): { response_format?: unknown } {
  if (!schema) return {};
  return { response_format: { type: "json_schema", json_schema: { name: "answer", schema, strict: true } } };
}
