/**
 * The `ollama` provider on the real `ollama` npm client: `complete` → /api/generate, `chat` → /api/chat
 * with native `tools`. Every call runs under the caller's signal and a time limit through a custom fetch
 * (the client cannot abort a non-streamed request itself); `onText` switches to streaming.
 */

import { type GenerateResponse, Ollama, type ChatResponse as OllamaChatResponse } from "ollama";
import { onceUntilFailure } from "../memo.ts";
import { closeNames } from "./close-names.ts";
import { answerInvalid, autoWindow } from "./context.ts";
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
  type RetryPolicy,
  STAGE_HEADER,
  withRetries,
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
import { estimateTokens } from "./prompt-size.ts";
import { promptChars } from "./prompt-text.ts";
import type {
  CallContext,
  ChatMessage,
  ChatRequest,
  ChatResponse,
  ChatTool,
  CompletionRequest,
  CompletionResponse,
  GenerationOptions,
  ModelFacts,
  ModelProvider,
  NativeToolCall,
  RequestBase,
  WarmUp,
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
  /** A thinking model thinks in stage calls only when the entry says `think: true`. */
  think?: boolean;
  /** Waits between attempts of a call the server turned away for a while (503, 429). */
  retry?: RetryPolicy;
}

/** The output cap a window is sized for when a stage sets none (native and chat loops). */
const DEFAULT_OUTPUT_CAP = 1024;

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
  /** /api/version and /api/show, once per provider (one provider per model); cleared when it fails. */
  private readonly facts = onceUntilFailure(() => this.readFacts());
  /**
   * The largest `auto` window sent so far: a smaller prompt keeps it, since Ollama reloads the model (and
   * loses its prompt cache) whenever num_ctx changes; windows only grow, so a run reloads a few times.
   */
  private autoWindowSent = 0;

  constructor(private readonly settings: OllamaProviderOptions) {
    this.id = `ollama:${settings.model}`;
    this.host = resolveOllamaHost(settings.host);
    this.target = {
      endpoint: `Ollama at ${this.host}`,
      unreachableHint: "start it with `ollama serve`, or point OLLAMA_HOST (or `host:` in models.yaml) at it",
    };
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    const facts = await this.describe();
    const fitted = this.fit(facts, request.options, { prompt: request.prompt });
    return this.call(request, async (client, started) => {
      const body = { ...fitted.body, prompt: request.prompt };
      if (!request.onText) {
        const response = this.answered(await client.generate({ ...body, stream: false }));
        if (typeof response.response !== "string") throw this.badAnswer("an answer without `response`");
        return fitted.read({ text: response.response ?? "", thinking: response.thinking }, response, started);
      }
      let text = "";
      let thinking = "";
      const last = await this.drain(await client.generate({ ...body, stream: true }), (part: GenerateResponse) => {
        thinking += part.thinking ?? "";
        if (part.response) {
          text += part.response;
          request.onText?.(part.response);
        }
      });
      return fitted.read({ text, thinking }, last, started);
    });
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    const tools = request.tools?.length ? toOllamaTools(request.tools) : undefined;
    const facts = await this.describe();
    if (tools && facts.capabilities && !facts.capabilities.includes("tools")) {
      throw this.noTools(`capabilities: ${facts.capabilities.join(", ") || "none"}`);
    }
    const fitted = this.fit(facts, request.options, { messages: request.messages, tools: request.tools });
    return this.call(request, async (client, started) => {
      const body = {
        ...fitted.body,
        messages: toOllamaMessages(request.messages) as OllamaChatRequestMessages,
        ...(tools ? { tools } : {}),
        // constrained decoding: Ollama turns a JSON Schema in `format` into a grammar (0.5.0 and later)
        ...(request.format ? { format: request.format } : {}),
      };
      if (!request.onText) {
        const response = this.answered(await client.chat({ ...body, stream: false }));
        const message = response.message as OllamaWireMessage | undefined;
        if (!message) throw this.badAnswer("an answer without `message`");
        return {
          ...fitted.read({ text: message.content ?? "", thinking: message.thinking }, response, started),
          toolCalls: fromOllamaToolCalls(message.tool_calls ?? []),
        };
      }
      let text = "";
      let thinking = "";
      const toolCalls: NativeToolCall[] = [];
      const last = await this.drain(await client.chat({ ...body, stream: true }), (part: OllamaChatResponse) => {
        const message = part.message as OllamaWireMessage;
        thinking += message.thinking ?? "";
        if (message.content) {
          text += message.content;
          request.onText?.(message.content);
        }
        toolCalls.push(...fromOllamaToolCalls(message.tool_calls ?? []));
      });
      return { ...fitted.read({ text, thinking }, last, started), toolCalls };
    });
  }

  /** The server's version and the model's facts, read once (a failure is typed, and tried again next call). */
  describe(): Promise<ModelFacts> {
    return this.facts();
  }

  /**
   * Loads the model with Ollama's load request (an empty prompt: nothing is generated, so a run whose
   * every call is cached asks the server for no generation), so that no measured call pays for the load.
   * Ollama reports no durations for it: its wall time is the load.
   */
  async warmUp(): Promise<WarmUp> {
    const started = performance.now();
    const response = await this.complete({ stage: "solver", prompt: "", options: { maxTokens: 1 } });
    const totalMs = performance.now() - started;
    return { totalMs, loadMs: response.timings.loadMs ?? totalMs };
  }

  /**
   * The request body's model fields with the window this request gets, and how to read its answer: the
   * prompt's fit and the stop reason decide whether the answer can be scored.
   */
  private fit(
    facts: ModelFacts,
    options: GenerationOptions | undefined,
    content: { prompt?: string; messages?: readonly ChatMessage[]; tools?: readonly ChatTool[] },
  ) {
    const merged = { ...this.settings.options, ...options };
    const chars = promptChars(content);
    const estimate = estimateTokens.high(chars);
    const set = merged.numCtx !== undefined;
    const window = set
      ? merged.numCtx!
      : Math.max(
          this.autoWindowSent,
          autoWindow(estimate, merged.maxTokens ?? DEFAULT_OUTPUT_CAP, facts.contextLength),
        );
    if (!set) this.autoWindowSent = window;
    const context: CallContext = dropUndefined({
      window,
      windowSource: set ? ("set" as const) : ("auto" as const),
      estimate,
      // Ollama has no tokenizer endpoint: the estimate sizes the window, the server's count checks it after
      countSource: "estimate" as const,
      maxWindow: facts.contextLength,
    });
    const thinks = facts.capabilities?.includes("thinking");
    const body = dropUndefined({
      model: this.settings.model,
      options: toOllamaOptions({ ...merged, numCtx: window }),
      keep_alive: merged.keepAlive,
      // only a thinking model takes `think`; others refuse the field
      think: thinks ? (this.settings.think ?? false) : undefined,
    });
    const read = (
      answer: { text: string; thinking?: string },
      metrics: OllamaMetrics & { done_reason?: string },
      started: number,
    ): CompletionResponse => {
      const { usage, timings } = metricsOf(metrics, started);
      const invalid = answerInvalid({
        context,
        chars,
        promptTokens: metrics.prompt_eval_count,
        doneReason: metrics.done_reason,
      });
      return dropUndefined({
        text: answer.text,
        usage,
        timings,
        context,
        invalid,
        doneReason: metrics.done_reason,
        thinking: answer.thinking || undefined,
      });
    };
    return { body, read };
  }

  private async readFacts(): Promise<ModelFacts> {
    return this.call({ stage: "solver" }, async (client) => {
      const version = (await client.version()) as { version?: string; standin?: { profile?: string; real?: boolean } };
      const show = (await client.show({ model: this.settings.model }).catch(async (error: unknown) => {
        // a mistyped name: the not-found error names the server's close ones
        if (isResponseError(error) && error.status_code === 404) {
          const served = await client.list().then(
            ({ models }) => models.map((model) => model.name),
            () => undefined,
          );
          throw this.notFound(error, served);
        }
        throw error;
      })) as unknown as ShowAnswer;
      // the digest is listed by /api/tags (newer servers also put it in /api/show)
      const listed = (await client.list()).models.find((model) => sameModel(model.name, this.settings.model));
      const numCtx = this.settings.options?.numCtx;
      return dropUndefined({
        serverVersion: version.version,
        standin: version.standin
          ? { profile: String(version.standin.profile ?? "unknown"), real: version.standin.real === true }
          : undefined,
        digest: show.digest ?? listed?.digest,
        family: show.details?.family,
        parameterSize: show.details?.parameter_size,
        quantization: show.details?.quantization_level,
        contextLength: contextLengthOf(show),
        contextSource: contextLengthOf(show) === undefined ? "unknown (/api/show has no context_length)" : "/api/show",
        numCtx: numCtx ?? ("auto" as const),
        capabilities: Array.isArray(show.capabilities) ? show.capabilities : undefined,
        think: show.capabilities?.includes("thinking") ? (this.settings.think ?? false) : undefined,
      });
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
      return withRetries(this.settings.retry, signal, async () => {
        try {
          return await run(client, performance.now());
        } catch (error) {
          throw this.typed(error, signal);
        }
      });
    });
  }

  /** Reads a stream to its final (`done`) chunk, handing each chunk to `each`. */
  private async drain<T extends { done: boolean }>(parts: AsyncIterable<T>, each: (part: T) => void): Promise<T> {
    let last: T | undefined;
    for await (const part of parts) {
      each(part);
      last = part;
    }
    if (!last?.done) throw this.badAnswer('a stream that ended before "done"');
    return last;
  }

  /** An answer with status 200 that is an error object (some proxies and older servers send them). */
  private answered<T extends object>(response: T): T {
    const error = (response as { error?: unknown }).error;
    if (typeof error === "string") {
      throw new ProviderHttpError(undefined, `${this.target.endpoint} failed: ${error}`, {
        context: { host: this.host, model: this.settings.model },
      });
    }
    return response;
  }

  private badAnswer(detail: string): ProviderProtocolError {
    return new ProviderProtocolError("PROVIDER_BAD_RESPONSE", `${this.target.endpoint} sent ${detail}`, {
      context: { host: this.host, model: this.settings.model },
    });
  }

  private typed(error: unknown, signal: AbortSignal): unknown {
    if (isResponseError(error)) {
      const message = error.error || error.message;
      if (error.status_code === 404) return this.notFound(error);
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
    if (error instanceof SyntaxError) {
      return new ProviderProtocolError(
        "PROVIDER_BAD_RESPONSE",
        `${this.target.endpoint} sent an answer that is not JSON`,
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

  /**
   * A model the server does not have: the close names it has when they are known (its /api/tags, read
   * when /api/show said 404), else `ollama pull`. A typo is rarely meant to be pulled.
   */
  private notFound(error: ClientResponseError, served?: readonly string[]): ModelNotFoundError {
    const { model } = this.settings;
    const close = served ? closeNames(model, served) : [];
    const advice =
      close.length > 0
        ? `it has ${close.map((name) => `"${name}"`).join(", ")}: pick one (--model), or run \`ollama pull ${model}\``
        : `run \`ollama pull ${model}\``;
    return new ModelNotFoundError(
      "MODEL_NOT_FOUND",
      `model "${model}" not found on ${this.target.endpoint}: ${advice}`,
      {
        context: { host: this.host, model, serverMessage: error.error || error.message, ...(served ? { close } : {}) },
        cause: error,
      },
    );
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

/** The fields of /api/show this provider reads (`digest` is sent by newer servers; the client's type lacks it). */
interface ShowAnswer {
  digest?: string;
  details?: { family?: string; parameter_size?: string; quantization_level?: string };
  model_info?: Record<string, unknown>;
  parameters?: string;
  capabilities?: string[];
}

/** Ollama's default tag: `qwen2.5` is `qwen2.5:latest`. */
function sameModel(a: string, b: string): boolean {
  const tagged = (name: string) => (name.includes(":") ? name : `${name}:latest`);
  return tagged(a) === tagged(b);
}

/** `model_info["<arch>.context_length"]`: the model's largest window. */
function contextLengthOf(show: ShowAnswer): number | undefined {
  const info = show.model_info ?? {};
  const arch = info["general.architecture"];
  const value =
    (typeof arch === "string" ? info[`${arch}.context_length`] : undefined) ??
    Object.entries(info).find(([key]) => key.endsWith(".context_length"))?.[1];
  return typeof value === "number" && value > 0 ? value : undefined;
}

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
