/**
 * The `openai` provider: any OpenAI-compatible endpoint (LiteLLM, vLLM, llama.cpp server, MLX, Ollama's
 * /v1) by plain fetch. `complete` → /v1/completions, `chat` → /v1/chat/completions with tools; `onText`
 * switches to SSE streaming. The API key is read from the environment variable the model entry names,
 * at call time, and goes into the Authorization header only. Non-loopback URLs need `allow_remote`.
 */

import { dropUndefined } from "../json.ts";
import { onceUntilFailure } from "../memo.ts";
import { answerInvalid, CONTEXT_REFUSAL, estimateVerdict } from "./context.ts";
import {
  BadEndpointError,
  ContextOverflowError,
  MissingApiKeyError,
  ModelNotFoundError,
  PromptTooLongError,
  ProviderHttpError,
  ProviderProtocolError,
  RemoteEndpointError,
} from "./errors.ts";
import {
  type CallTarget,
  DEFAULT_CALL_TIMEOUT_MS,
  guardedCall,
  isLoopbackHost,
  type RetryPolicy,
  readLines,
  STAGE_HEADER,
  withRetries,
} from "./http.ts";
import {
  fromOpenAIToolCalls,
  type LlamaCppTimings,
  type OpenAIMessage,
  type OpenAIToolCall,
  type OpenAIUsage,
  openAITimings,
  openAIUsage,
  ToolCallDeltas,
  toOpenAIMessages,
  toOpenAIResponseFormat,
  toOpenAISampling,
  toOpenAITools,
} from "./openai-wire.ts";
import { estimateTokens } from "./prompt-size.ts";
import { promptChars } from "./prompt-text.ts";
import { type CountInput, ServerTokenizer, type TokenizerProbes, type TokenizerSetting } from "./tokenizer.ts";
import type {
  CallContext,
  ChatRequest,
  ChatResponse,
  CompletionRequest,
  CompletionResponse,
  GenerationOptions,
  ModelFacts,
  ModelProvider,
  ModelStage,
  NativeToolCall,
  RequestBase,
  WarmUp,
} from "./types.ts";

/** Ollama's own OpenAI-compatible API (and the stand-in's) when neither the entry nor OPENAI_BASE_URL says. */
export const DEFAULT_OPENAI_BASE_URL = "http://127.0.0.1:11434/v1";

export interface OpenAIProviderOptions {
  /** The model name the server knows. */
  model: string;
  /** Up to and including `/v1`, e.g. `http://127.0.0.1:8080/v1`; else OPENAI_BASE_URL, else Ollama's. */
  baseUrl?: string;
  /** The NAME of the environment variable holding the API key (never the key itself). */
  apiKeyEnv?: string;
  /** Allow a base URL that is not loopback. */
  allowRemote?: boolean;
  /** The model entry's options; a request's own options win over them. */
  options?: GenerationOptions;
  timeoutMs?: number;
  /** Where the entry came from, for error messages (e.g. `models.yaml: models.llamacpp`). */
  source?: string;
  /** The server's context window (`context_window` in models.yaml): OpenAI's API cannot set one. */
  contextWindow?: number;
  /** Waits between attempts of a call the server turned away for a while (503, 429). */
  retry?: RetryPolicy;
  /**
   * `auto` (default): when the character estimate cannot tell whether a prompt fits the window, ask the
   * server's tokenizer (vLLM, llama.cpp) for its exact count; `off`: never ask.
   */
  tokenizer?: TokenizerSetting;
  /** Where the tokenizer probes are remembered (tests give their own; default: one table per process). */
  tokenizerProbes?: TokenizerProbes;
}

/**
 * The window assumed when neither the entry nor /v1/models gives one: what Ollama's /v1 gives a request
 * (it ignores num_ctx) on a machine with less than 24 GiB of VRAM, the smallest a local server is likely
 * to run. Too small an assumption flags calls; too large a one would let cut prompts be scored.
 */
export const ASSUMED_OPENAI_WINDOW = 4096;

/** The stand-in server names itself in this response header. */
export const STANDIN_HEADER = "x-onsetlab-standin";

export function resolveOpenAIBaseUrl(baseUrl?: string, env: NodeJS.ProcessEnv = process.env): string {
  return (baseUrl ?? (env.OPENAI_BASE_URL?.trim() || DEFAULT_OPENAI_BASE_URL)).replace(/\/+$/, "");
}

/** One choice of a (non-streamed or streamed) answer, as far as this provider reads it. */
interface Choice {
  text?: string;
  message?: OpenAIMessage & { reasoning_content?: string | null };
  delta?: { content?: string | null; reasoning_content?: string | null; tool_calls?: OpenAIToolCall[] };
  finish_reason?: string | null;
}

/** An entry of /v1/models, with the window fields the servers that give one use (vLLM, LM Studio, llama.cpp). */
interface ListedModel {
  id?: string;
  max_model_len?: number;
  context_length?: number;
  context_window?: number;
  max_context_length?: number;
  meta?: { n_ctx?: number; n_ctx_train?: number };
}

interface Answer {
  choices?: Choice[];
  usage?: OpenAIUsage | null;
  timings?: LlamaCppTimings;
  error?: unknown;
}

export class OpenAIProvider implements ModelProvider {
  readonly id: string;
  readonly baseUrl: string;
  private readonly target: CallTarget;
  private readonly source: string;
  private readonly facts = onceUntilFailure(() => this.readFacts());
  /** The server's tokenizer, asked when the estimate cannot decide; undefined with `tokenizer: off`. */
  readonly tokenizer: ServerTokenizer | undefined;

  constructor(private readonly settings: OpenAIProviderOptions) {
    this.id = `openai:${settings.model}`;
    this.baseUrl = resolveOpenAIBaseUrl(settings.baseUrl);
    this.source = settings.source ?? `model "${settings.model}"`;
    const url = parseUrl(this.baseUrl, this.source);
    if (!isLoopbackHost(url.hostname) && settings.allowRemote !== true) {
      throw new RemoteEndpointError(
        "REMOTE_ENDPOINT_REFUSED",
        `${this.source}: base URL ${this.baseUrl} is not on this machine; set \`allow_remote: true\` in the model entry to send prompts there`,
        { context: { baseUrl: this.baseUrl, model: settings.model } },
      );
    }
    this.target = {
      endpoint: this.baseUrl,
      unreachableHint: "is the server running? Check `base_url` in models.yaml (or OPENAI_BASE_URL)",
    };
    this.tokenizer =
      settings.tokenizer === "off"
        ? undefined
        : new ServerTokenizer({
            baseUrl: this.baseUrl,
            model: settings.model,
            headers: () => this.headers("solver", false),
            ...(settings.tokenizerProbes ? { probes: settings.tokenizerProbes } : {}),
          });
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    const body = { prompt: request.prompt };
    const chars = promptChars({ prompt: request.prompt });
    return this.call("/completions", body, request, chars, (answers) => {
      const text = answers.map((answer) => answer.choices?.[0]?.text ?? "").join("");
      return { text };
    });
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    const body = {
      messages: toOpenAIMessages(request.messages),
      ...(request.tools?.length ? { tools: toOpenAITools(request.tools) } : {}),
    };
    const chars = promptChars({ messages: request.messages, tools: request.tools });
    return this.call("/chat/completions", body, request, chars, (answers, streamed) => {
      if (!streamed) {
        const message = answers[0]?.choices?.[0]?.message;
        if (!message) throw this.badAnswer("/chat/completions", "no choices[0].message");
        return dropUndefined({
          text: message.content ?? "",
          toolCalls: fromOpenAIToolCalls(message.tool_calls ?? []),
          thinking: message.reasoning_content || undefined,
        });
      }
      const deltas = new ToolCallDeltas();
      let text = "";
      let thinking = "";
      for (const answer of answers) {
        const delta = answer.choices?.[0]?.delta;
        text += delta?.content ?? "";
        thinking += delta?.reasoning_content ?? "";
        if (delta?.tool_calls) deltas.add(delta.tool_calls);
      }
      return dropUndefined({ text, toolCalls: deltas.finish(), thinking: thinking || undefined });
    });
  }

  /**
   * The model's window (the entry's `context_window`, else /v1/models where the server lists one, else
   * an assumed 4096) and whether the server is the stand-in. The window cannot be set through this API.
   */
  describe(): Promise<ModelFacts> {
    return this.facts();
  }

  /** One one-token request before measuring (a server that loads models on demand loads it now). */
  async warmUp(): Promise<WarmUp> {
    const response = await this.chat({
      stage: "solver",
      messages: [{ role: "user", content: "Reply with OK." }],
      options: { maxTokens: 1 },
    });
    return dropUndefined({ totalMs: response.timings.totalMs, loadMs: response.timings.loadMs });
  }

  private async readFacts(): Promise<ModelFacts> {
    const limits = { timeoutMs: this.settings.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS };
    return guardedCall(this.target, limits, async (signal) => {
      const response = await fetch(`${this.baseUrl}/models`, { headers: this.headers("solver", false), signal });
      const standin = response.headers.get(STANDIN_HEADER);
      let listed: ListedModel | undefined;
      if (response.ok) {
        const list = (await response.json().catch(() => ({}))) as { data?: ListedModel[] };
        listed = list.data?.find((model) => model.id === this.settings.model);
      } else await response.body?.cancel();
      const served =
        listed?.max_model_len ??
        listed?.context_window ??
        listed?.context_length ??
        listed?.max_context_length ??
        listed?.meta?.n_ctx ??
        listed?.meta?.n_ctx_train;
      const configured = this.settings.contextWindow;
      return dropUndefined({
        standin: standin ? { profile: standin, real: false } : undefined,
        contextLength: configured ?? served ?? ASSUMED_OPENAI_WINDOW,
        contextSource:
          configured !== undefined
            ? "context_window in models.yaml"
            : served !== undefined
              ? "/v1/models"
              : `assumed ${ASSUMED_OPENAI_WINDOW} (set context_window in models.yaml)`,
        numCtx: "server" as const,
      });
    });
  }

  /**
   * The call's context accounting before it is sent. The window is the server's; where the character
   * estimate cannot tell whether the prompt fits it, the server's tokenizer counts the prompt (when it has
   * one), and a prompt it counts longer than the window is not sent: PromptTooLongError.
   */
  private async fit(facts: ModelFacts, chars: number, input: CountInput, signal: AbortSignal): Promise<CallContext> {
    const window = facts.contextLength;
    const estimated: CallContext = dropUndefined({
      window,
      windowSource: "server" as const,
      estimate: estimateTokens.high(chars),
      countSource: "estimate" as const,
      maxWindow: window,
    });
    if (!this.tokenizer || window === undefined || estimateVerdict(chars, window) !== "undecided") return estimated;
    const count = await this.tokenizer.count(input, signal);
    if ("uncounted" in count) return { ...estimated, uncounted: count.uncounted };
    const counted: CallContext = {
      ...estimated,
      countSource: "tokenizer",
      ...("tokens" in count ? { counted: count.tokens } : {}),
    };
    if ("refused" in count || count.tokens > window) {
      const size = "tokens" in count ? `${count.tokens} tokens` : count.refused;
      throw new PromptTooLongError(
        `${this.baseUrl}: the prompt does not fit the ${window}-token window by the server's tokenizer (${size}); not sent`,
        counted,
        { context: { baseUrl: this.baseUrl, model: this.settings.model } },
      );
    }
    return counted;
  }

  /**
   * Posts one request (streamed when `onText` is given) and hands the answer — one object, or every
   * SSE chunk in order — to `read`; usage and timings come from whichever chunk carried them. `body` is
   * the prompt as sent (a prompt, or messages and tools), and what the server's tokenizer counts.
   */
  private async call<T extends { text: string; toolCalls?: NativeToolCall[]; thinking?: string }>(
    path: string,
    body: CountInput,
    request: RequestBase,
    chars: number,
    read: (answers: Answer[], streamed: boolean) => T,
  ): Promise<T & CompletionResponse> {
    const facts = await this.describe();
    const limits = {
      signal: request.signal,
      timeoutMs: request.timeoutMs ?? this.settings.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
    };
    const streamed = request.onText !== undefined;
    const payload = {
      model: this.settings.model,
      ...toOpenAISampling({ ...this.settings.options, ...request.options }),
      ...body,
      ...toOpenAIResponseFormat((request as Partial<ChatRequest>).format),
      ...(streamed ? { stream: true, stream_options: { include_usage: true } } : {}),
    };
    return guardedCall(this.target, limits, async (signal) => {
      const context = await this.fit(facts, chars, body, signal);
      return withRetries(this.settings.retry, signal, async () => {
        const started = performance.now();
        const response = await fetch(`${this.baseUrl}${path}`, {
          method: "POST",
          headers: this.headers(request.stage, streamed),
          body: JSON.stringify(payload),
          signal,
        });
        if (!response.ok) throw await this.httpError(path, response);
        const answers = streamed
          ? await this.readStream(path, response, request.onText)
          : [await this.readJson(path, response)];
        const withUsage = answers.findLast((answer) => answer.usage) ?? answers.at(-1);
        const timings = answers.findLast((answer) => answer.timings)?.timings;
        const doneReason = answers.findLast((answer) => answer.choices?.[0]?.finish_reason)?.choices?.[0]
          ?.finish_reason;
        const usage = openAIUsage(withUsage?.usage ?? undefined, timings);
        const invalid = answerInvalid({
          context,
          chars,
          promptTokens: usage.promptTokens,
          doneReason: doneReason ?? undefined,
        });
        return {
          ...read(answers, streamed),
          usage,
          timings: openAITimings(timings, performance.now() - started),
          ...dropUndefined({ context, invalid, doneReason: doneReason ?? undefined }),
        };
      });
    });
  }

  private headers(stage: ModelStage, streamed: boolean): Record<string, string> {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: streamed ? "text/event-stream" : "application/json",
      [STAGE_HEADER]: stage,
    };
    const key = this.apiKey();
    if (key) headers.authorization = `Bearer ${key}`;
    return headers;
  }

  private apiKey(): string | undefined {
    const name = this.settings.apiKeyEnv;
    if (!name) return undefined;
    const key = process.env[name];
    if (!key) {
      throw new MissingApiKeyError(
        "API_KEY_MISSING",
        `${this.source}: api_key_env names ${name}, but that environment variable is not set`,
        { context: { apiKeyEnv: name } },
      );
    }
    return key;
  }

  private async readJson(path: string, response: Response): Promise<Answer> {
    const text = await response.text();
    try {
      return JSON.parse(text) as Answer;
    } catch (error) {
      throw this.badAnswer(path, `not JSON: ${text.slice(0, 120)}`, error);
    }
  }

  /** SSE: `data: {…}` chunks until `data: [DONE]`; an `error` chunk fails the call. */
  private async readStream(path: string, response: Response, onText?: (delta: string) => void): Promise<Answer[]> {
    if (!response.body) throw this.badAnswer(path, "a streamed answer without a body");
    const answers: Answer[] = [];
    for await (const line of readLines(response.body)) {
      if (!line.startsWith("data:")) continue;
      const data = line.slice(5).trim();
      if (data === "[DONE]") return answers;
      let answer: Answer;
      try {
        answer = JSON.parse(data) as Answer;
      } catch (error) {
        throw this.badAnswer(path, `an SSE chunk that is not JSON: ${data.slice(0, 120)}`, error);
      }
      if (answer.error)
        throw new ProviderHttpError(undefined, `${this.baseUrl}${path} failed mid-answer: ${errorText(answer.error)}`);
      answers.push(answer);
      const piece = answer.choices?.[0]?.delta?.content ?? answer.choices?.[0]?.text;
      if (piece) onText?.(piece);
    }
    throw this.badAnswer(path, "the stream ended without `data: [DONE]`");
  }

  private async httpError(path: string, response: Response): Promise<Error> {
    const raw = await response.text().catch(() => "");
    let message = raw.slice(0, 300) || response.statusText;
    try {
      message = errorText((JSON.parse(raw) as { error?: unknown }).error ?? message);
    } catch {
      // not JSON: the text itself is the message
    }
    const context = { baseUrl: this.baseUrl, model: this.settings.model, status: response.status };
    if (response.status === 400 && CONTEXT_REFUSAL.test(message)) {
      return new ContextOverflowError(
        "CONTEXT_OVERFLOW",
        `${this.baseUrl}${path}: the prompt does not fit (${message})`,
        {
          context,
        },
      );
    }
    if (response.status === 404 && /model/i.test(message)) {
      return new ModelNotFoundError(
        "MODEL_NOT_FOUND",
        `${this.baseUrl} does not serve model "${this.settings.model}" (${message}); check \`model:\` in ${this.source}`,
        { context },
      );
    }
    const hint =
      response.status === 401 || response.status === 403
        ? ` (check the key in ${this.settings.apiKeyEnv ?? "the variable named by api_key_env"})`
        : "";
    return new ProviderHttpError(
      response.status,
      `${this.baseUrl}${path} answered ${response.status}: ${message}${hint}`,
      {
        context,
      },
    );
  }

  private badAnswer(path: string, detail: string, cause?: unknown): ProviderProtocolError {
    return new ProviderProtocolError("PROVIDER_BAD_RESPONSE", `${this.baseUrl}${path} sent ${detail}`, {
      context: { baseUrl: this.baseUrl, model: this.settings.model },
      cause,
    });
  }
}

function parseUrl(baseUrl: string, source: string): URL {
  try {
    return new URL(baseUrl);
  } catch (error) {
    throw new BadEndpointError("BAD_BASE_URL", `${source}: base URL "${baseUrl}" is not a URL`, { cause: error });
  }
}

/** `{"error": "…"}` (Ollama) or `{"error": {"message": "…"}}` (OpenAI). */
function errorText(error: unknown): string {
  if (typeof error === "string") return error;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === "string" ? message : JSON.stringify(error);
}
