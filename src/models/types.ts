/** The model interface every provider implements (DESIGN §4). The agent depends on this file only. */

import type { JsonSchema } from "../mcp/types.ts";

/** Which pipeline stage made a request: a cassette miss names it, the sim picks its protocol by it. */
export type ModelStage = "router" | "planner" | "react" | "fallback" | "solver" | "jsonl" | "native";

export interface GenerationOptions {
  temperature?: number;
  maxTokens?: number;
  stop?: string[];
  seed?: number;
  numCtx?: number;
  keepAlive?: string;
}

export interface ModelUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface ModelTimings {
  totalMs: number;
  loadMs?: number;
  promptEvalMs?: number;
  evalMs?: number;
}

export interface NativeToolCall {
  id?: string;
  name: string;
  arguments: Record<string, unknown>;
  /** The arguments as the server sent them, when they were a string that is not a JSON object. */
  rawArguments?: string;
  /** Why `rawArguments` could not be parsed (`arguments` is then `{}`): reported, never dropped. */
  argumentsError?: string;
}

export interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  toolCalls?: NativeToolCall[];
  /** For role "tool": the call this message answers. */
  toolCallId?: string;
  toolName?: string;
}

export interface ChatTool {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** What every request carries besides its content. */
export interface RequestBase {
  stage: ModelStage;
  options?: GenerationOptions;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** When given, the provider streams (where its API can) and hands over each text piece as it arrives. */
  onText?: (delta: string) => void;
}

export interface CompletionRequest extends RequestBase {
  prompt: string;
}

export interface ChatRequest extends RequestBase {
  messages: ChatMessage[];
  tools?: ChatTool[];
}

export interface CompletionResponse {
  text: string;
  usage: ModelUsage;
  timings: ModelTimings;
}

export interface ChatResponse extends CompletionResponse {
  toolCalls: NativeToolCall[];
}

export interface ModelProvider {
  /** e.g. `ollama:qwen2.5:3b`, `sim:slm-3b`. */
  readonly id: string;
  complete(request: CompletionRequest): Promise<CompletionResponse>;
  chat(request: ChatRequest): Promise<ChatResponse>;
}
