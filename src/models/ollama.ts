/**
 * The `ollama` provider on the real `ollama` npm client: `complete` → /api/generate, `chat` → /api/chat
 * with native `tools`. Every call runs under the caller's signal and a time limit through a custom fetch
 * (the client cannot abort a non-streamed request itself); `onText` switches to streaming.
 */

import { type GenerateResponse, Ollama, type ChatResponse as OllamaChatResponse } from "ollama";
import {
  type ModelError,
  ModelNotFoundError,
  ProviderHttpError,
  ProviderProtocolError,
  ToolsUnsupportedError,
} from "./errors.ts";
import {
  type CallTarget,
  DEFAULT_CALL_TIMEOUT_MS,
  fetchWithSignal,
  guardedCall,
  networkFailure,
  STAGE_HEADER,
} from "./http.ts";
import { dropUndefined } from "./json.ts";
import {
  fromOllamaToolCalls,
  type OllamaMetrics,
  type OllamaWireMessage,
  ollamaTimings,
  ollamaUsage,
  toOllamaMessages,
  toOllamaOptions,
  toOllamaTools,
} from "./ollama-wire.ts";
import type {
  ChatRequest,
  ChatResponse,
  CompletionRequest,
  CompletionResponse,
  GenerationOptions,
  ModelProvider,
  NativeToolCall,
  RequestBase,
} from "./types.ts";

export const DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434";

export interface OllamaProviderOptions {
  /** The model name as Ollama knows it, e.g. `qwen2.5:3b`. */
  model: string;
  /** Overrides OLLAMA_HOST (the client does not read it itself). */
  host?: string;
  /** The model entry's options; a request's own options win over them. */
  options?: GenerationOptions;
  /** Time limit of a call that does not bring its own `timeoutMs`. */
  timeoutMs?: number;
}

/** The host to use: the model entry's, else OLLAMA_HOST, else Ollama's default. */
export function resolveOllamaHost(host?: string, env: NodeJS.ProcessEnv = process.env): string {
  return host ?? (env.OLLAMA_HOST?.trim() || DEFAULT_OLLAMA_HOST);
}

/** Whatever the client returns that an error status became (ResponseError is not exported). */
interface ClientResponseError extends Error {
  status_code: number;
  error: string;
}

export class OllamaProvider implements ModelProvider {
  readonly id: string;
  readonly host: string;
  private readonly target: CallTarget;
  /** The /api/show check, once per provider (one provider per model); cleared when it fails. */
  private toolSupport: Promise<void> | undefined;

  constructor(private readonly settings: OllamaProviderOptions) {
    this.id = `ollama:${settings.model}`;
    this.host = resolveOllamaHost(settings.host);
    this.target = {
      endpoint: `Ollama at ${this.host}`,
      unreachableHint: "start it with `ollama serve`, or point OLLAMA_HOST (or `host:` in models.yaml) at it",
    };
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    return this.call(request, async (client, started) => {
      const body = { ...this.body(request.options), prompt: request.prompt };
      if (!request.onText) {
        const response = await client.generate({ ...body, stream: false });
        return { text: response.response ?? "", ...metricsOf(response, started) };
      }
      let text = "";
      const last = await this.drain(await client.generate({ ...body, stream: true }), (part: GenerateResponse) => {
        if (part.response) {
          text += part.response;
          request.onText?.(part.response);
        }
      });
      return { text, ...metricsOf(last, started) };
    });
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    const tools = request.tools?.length ? toOllamaTools(request.tools) : undefined;
    if (tools) await this.ensureToolSupport();
    return this.call(request, async (client, started) => {
      const body = {
        ...this.body(request.options),
        messages: toOllamaMessages(request.messages) as OllamaChatRequestMessages,
        ...(tools ? { tools } : {}),
      };
      if (!request.onText) {
        const response = await client.chat({ ...body, stream: false });
        const message = response.message as OllamaWireMessage;
        return {
          text: message.content ?? "",
          toolCalls: fromOllamaToolCalls(message.tool_calls ?? []),
          ...metricsOf(response, started),
        };
      }
      let text = "";
      const toolCalls: NativeToolCall[] = [];
      const last = await this.drain(await client.chat({ ...body, stream: true }), (part: OllamaChatResponse) => {
        const message = part.message as OllamaWireMessage;
        if (message.content) {
          text += message.content;
          request.onText?.(message.content);
        }
        toolCalls.push(...fromOllamaToolCalls(message.tool_calls ?? []));
      });
      return { text, toolCalls, ...metricsOf(last, started) };
    });
  }

  private body(options: GenerationOptions | undefined) {
    const merged = { ...this.settings.options, ...options };
    return dropUndefined({
      model: this.settings.model,
      options: toOllamaOptions(merged),
      keep_alive: merged.keepAlive,
    });
  }

  /** One client per call: its fetch carries this call's signal, its headers this call's stage. */
  private async call<T>(
    request: Pick<RequestBase, "stage" | "signal" | "timeoutMs">,
    run: (client: Ollama, started: number) => Promise<T>,
  ): Promise<T> {
    const limits = { signal: request.signal, timeoutMs: this.timeoutFor(request.timeoutMs) };
    return guardedCall(this.target, limits, async (signal) => {
      const client = new Ollama({
        host: this.host,
        fetch: fetchWithSignal(signal),
        headers: { [STAGE_HEADER]: request.stage },
      });
      try {
        return await run(client, performance.now());
      } catch (error) {
        throw this.typed(error, signal);
      }
    });
  }

  /** Reads a stream to its final (`done`) chunk, handing each chunk to `each`. */
  private async drain<T extends { done: boolean }>(parts: AsyncIterable<T>, each: (part: T) => void): Promise<T> {
    let last: T | undefined;
    for await (const part of parts) {
      each(part);
      last = part;
    }
    if (!last?.done) {
      throw new ProviderProtocolError("PROVIDER_BAD_RESPONSE", `${this.target.endpoint} ended a stream before "done"`);
    }
    return last;
  }

  private ensureToolSupport(): Promise<void> {
    this.toolSupport ??= this.checkToolSupport().catch((error: unknown) => {
      this.toolSupport = undefined;
      throw error;
    });
    return this.toolSupport;
  }

  /** /api/show must list "tools" (servers too old to report capabilities are let through to the call). */
  private async checkToolSupport(): Promise<void> {
    const capabilities = await this.call({ stage: "native" }, async (client) => {
      const info = await client.show({ model: this.settings.model });
      return info.capabilities as string[] | undefined;
    });
    if (Array.isArray(capabilities) && !capabilities.includes("tools")) {
      throw this.noTools(`capabilities: ${capabilities.join(", ") || "none"}`);
    }
  }

  private typed(error: unknown, signal: AbortSignal): unknown {
    if (isResponseError(error)) {
      const message = error.error || error.message;
      if (error.status_code === 404) {
        return new ModelNotFoundError(
          "MODEL_NOT_FOUND",
          `model "${this.settings.model}" not found on ${this.target.endpoint}: run \`ollama pull ${this.settings.model}\``,
          { context: { host: this.host, model: this.settings.model, serverMessage: message }, cause: error },
        );
      }
      if (error.status_code === 400 && /does not support tools/i.test(message)) return this.noTools(message, error);
      return new ProviderHttpError(
        error.status_code,
        `${this.target.endpoint} answered ${error.status_code}: ${message}`,
        {
          context: { host: this.host, model: this.settings.model },
          cause: error,
        },
      );
    }
    // The client turns an `{"error": …}` chunk in a stream into a plain Error.
    if (error instanceof Error && error.name === "Error" && !signal.aborted && !networkFailure(error)) {
      return new ProviderHttpError(undefined, `${this.target.endpoint} failed mid-answer: ${error.message}`, {
        context: { host: this.host, model: this.settings.model },
        cause: error,
      });
    }
    return error;
  }

  private noTools(detail: string, cause?: unknown): ModelError {
    return new ToolsUnsupportedError(
      "MODEL_NO_TOOLS",
      `model "${this.settings.model}" on ${this.target.endpoint} does not support tools (${detail}); ` +
        "the native strategy needs a model with tool support: pick another configuration (e.g. jsonl) or model",
      { context: { host: this.host, model: this.settings.model }, cause },
    );
  }

  private timeoutFor(requested: number | undefined): number {
    return requested ?? this.settings.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  }
}

type OllamaChatRequestMessages = Parameters<Ollama["chat"]>[0]["messages"];

function metricsOf(metrics: OllamaMetrics, started: number) {
  return { usage: ollamaUsage(metrics), timings: ollamaTimings(metrics, performance.now() - started) };
}

function isResponseError(error: unknown): error is ClientResponseError {
  return (
    error instanceof Error &&
    error.name === "ResponseError" &&
    typeof (error as ClientResponseError).status_code === "number"
  );
}
