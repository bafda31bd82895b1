/** The model interface every provider implements (DESIGN §4). The agent depends on this file only. */

import type { JsonSchema } from "../tool-protocol/types.ts";

import type { ModelStage } from "./protocol.ts";

/** Which pipeline stage made a request (protocol.ts): a cassette miss names it, the sim picks its protocol by it. */
export type { ModelStage };

export interface GenerationOptions {
  temperature?: number;
  maxTokens?: number;
  stop?: string[];
  seed?: number;
  /**
   * The context window to ask for (Ollama's `num_ctx`), in tokens. Unset is `auto` (models.yaml's
   * `num_ctx: auto`, the default): each request gets a window that fits its prompt and output cap.
   */
  numCtx?: number;
  keepAlive?: string;
}

/**
 * What makes a call's answer unfit to score (the item becomes invalid, never wrong): the prompt did not
 * fit the window, the output hit its cap, or the server failed.
 */
export type InvalidReason = "context_overflow" | "output_truncated" | "server_error";

export const INVALID_REASONS: readonly InvalidReason[] = ["context_overflow", "output_truncated", "server_error"];

/** The context accounting of one call. */
export interface CallContext {
  /** The window the call ran in (the `num_ctx` sent, or the endpoint's fixed window), when known. */
  window?: number;
  /** How the window was chosen: sized per request (`auto`), a set number, or the server's own. */
  windowSource: "auto" | "set" | "server";
  /** The harness's conservative (high) estimate of the prompt's tokens from its characters, made before sending. */
  estimate: number;
  /**
   * Where the pre-send verdict on the prompt's size came from: the character estimate (it decided, or no
   * tokenizer could be asked), or the server's own tokenizer (asked when the estimate could not decide).
   */
  countSource: "estimate" | "tokenizer";
  /** The prompt's exact tokens, counted by the server's tokenizer before sending (`countSource: "tokenizer"`). */
  counted?: number;
  /**
   * Why the server's tokenizer did not count a prompt the estimate could not decide: the server has none
   * (the probe's answer), or the count failed. Absent when the estimate decided or `tokenizer: off`.
   */
  uncounted?: string;
  /** The model's largest window, when known. */
  maxWindow?: number;
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
  /**
   * Constrained decoding: the answer must be JSON valid against this schema (Ollama's `format`, an
   * OpenAI-compatible server's `response_format: {type: "json_schema"}`). Absent: free decoding.
   */
  format?: JsonSchema;
}

export interface CompletionResponse {
  text: string;
  usage: ModelUsage;
  timings: ModelTimings;
  /** Real servers only: how the prompt was fitted to the window (the simulator has none). */
  context?: CallContext;
  /** Why the answer cannot be scored, when it cannot (real servers only). */
  invalid?: InvalidReason;
  /** The server's reason for stopping (`stop`, `length`, `tool_calls` …), as sent. */
  doneReason?: string;
  /** A thinking model's reasoning text: recorded, never taken as the answer. */
  thinking?: string;
  /**
   * Real servers: prompt tokens (4 characters each) this request shared with the previous request to the
   * model — what the server's prompt cache could serve (prefix-tracker.ts).
   */
  sharedPrefixTokens?: number;
  /** Answered from the request cache (caching-provider.ts): the original call's wall time. */
  cached?: { durationMs: number };
  /** The base URL that answered, when the model has several (url-pool.ts). */
  servedBy?: string;
}

export interface ChatResponse extends CompletionResponse {
  toolCalls: NativeToolCall[];
}

/** What a real server says about itself and the model, read once before the first item (run.json). */
export interface ModelFacts {
  /** The server's version (`/api/version`), when it says. */
  serverVersion?: string;
  /** The stand-in server (mock-servers/ollama) identified itself: its numbers are simulated. */
  standin?: { profile: string; real: boolean };
  digest?: string;
  family?: string;
  parameterSize?: string;
  quantization?: string;
  /** The model's largest context window (tokens). */
  contextLength?: number;
  /** Where `contextLength` came from (`/api/show`, `context_window` in models.yaml, `/v1/models`), or why unknown. */
  contextSource: string;
  /** The window a request gets: `auto`, a number, or the endpoint's own (OpenAI-compatible). */
  numCtx: number | "auto" | "server";
  capabilities?: string[];
  /** Thinking models: whether stage calls let the model think (`think: true` in the model entry). */
  think?: boolean;
}

/** The unscored request made before measuring, so that loading the model is not in any latency. */
export interface WarmUp {
  totalMs: number;
  loadMs?: number;
}

export interface ModelProvider {
  /** e.g. `ollama:qwen2.5:3b`, `sim:slm-3b`. */
  readonly id: string;
  complete(request: CompletionRequest): Promise<CompletionResponse>;
  chat(request: ChatRequest): Promise<ChatResponse>;
  /** Real servers: the server's and the model's facts (read once; failures are typed ModelErrors). */
  describe?(): Promise<ModelFacts>;
  /** Real servers: one small unscored request that loads the model. */
  warmUp?(): Promise<WarmUp>;
}
