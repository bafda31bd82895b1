/**
 * The request cache in front of a provider: a deterministic request (temperature 0, or a fixed seed)
 * that was answered before, by the same model, is answered from the store (request-cache.ts) instead
 * of the server. The key is the sha256 of the model's identity (entry name, provider, model, base URLs,
 * the digest its server reports, the entry's own settings) and of the whole request as it reaches the
 * server (kind, prompt or messages, tools, every generation option). The stage is not in the key: a
 * server never sees it, and the same request from two stages is the same question.
 */

import { createHash } from "node:crypto";
import { canonicalJson, dropUndefined } from "../json.ts";
import { ModelAbortedError } from "./errors.ts";
import type { CachedAnswer, RequestCache } from "./request-cache.ts";
import type {
  ChatRequest,
  ChatResponse,
  CompletionRequest,
  CompletionResponse,
  GenerationOptions,
  ModelFacts,
  ModelProvider,
  WarmUp,
} from "./types.ts";

/** Bumped when the key's inputs or the stored answer change shape: old entries are then never hit. */
export const CACHE_KEY_VERSION = 2;

/** Who answers: everything about the model that could change an answer to the same request. */
export interface ModelIdentity {
  /** The model entry's name (the store's per-model range). */
  name: string;
  provider: string;
  model: string;
  /** The servers it is reached at (sorted: which of several served a call does not change the answer). */
  baseUrls: string[];
  /** The entry's options: a request's own win over them, and both go to the server. */
  options: GenerationOptions;
  /** Settings of the entry the server sees besides the options (e.g. `think`). */
  settings?: Record<string, unknown>;
}

/** The digest-free identity plus the digest, which the server reports once (`describe`). */
export function requestHash(
  identity: ModelIdentity,
  digest: string | undefined,
  kind: "complete" | "chat",
  request: CompletionRequest | ChatRequest,
): string {
  const options = effectiveOptions(identity.options, request.options);
  const keyed = {
    v: CACHE_KEY_VERSION,
    model: { ...identity, baseUrls: [...identity.baseUrls].sort(), options: undefined, digest },
    request: dropUndefined({
      kind,
      prompt: "prompt" in request ? request.prompt : undefined,
      messages: "messages" in request ? request.messages : undefined,
      tools: "tools" in request && request.tools?.length ? request.tools : undefined,
      format: "format" in request ? request.format : undefined,
      options,
    }),
  };
  return createHash("sha256").update(canonicalJson(keyed)).digest("hex");
}

/**
 * The options that reach the server. `keepAlive` is left out: it says how long the server keeps the
 * model loaded, not what it answers.
 */
function effectiveOptions(entry: GenerationOptions, request: GenerationOptions | undefined): GenerationOptions {
  const { keepAlive: _keepAlive, ...options } = { ...entry, ...request };
  return dropUndefined(options);
}

/** Deterministic requests only: at temperature 0 or with a fixed seed, asking again gets the same answer. */
export function isDeterministic(entry: GenerationOptions, request: GenerationOptions | undefined): boolean {
  const options = effectiveOptions(entry, request);
  return options.temperature === 0 || options.seed !== undefined;
}

export class CachingProvider implements ModelProvider {
  readonly id: string;
  readonly describe?: () => Promise<ModelFacts>;
  readonly warmUp?: () => Promise<WarmUp>;
  /** The server's digest of the model, read once (undefined when the server reports none). */
  private digest: Promise<string | undefined> | undefined;

  constructor(
    private readonly inner: ModelProvider,
    private readonly identity: ModelIdentity,
    private readonly cache: RequestCache,
  ) {
    this.id = inner.id;
    if (inner.describe) this.describe = () => inner.describe!();
    if (inner.warmUp) this.warmUp = () => inner.warmUp!();
  }

  complete(request: CompletionRequest): Promise<CompletionResponse> {
    return this.ask("complete", request, () => this.inner.complete(request));
  }

  chat(request: ChatRequest): Promise<ChatResponse> {
    return this.ask("chat", request, () => this.inner.chat(request)) as Promise<ChatResponse>;
  }

  private async ask<T extends CompletionResponse>(
    kind: "complete" | "chat",
    request: CompletionRequest | ChatRequest,
    call: () => Promise<T>,
  ): Promise<T> {
    if (!isDeterministic(this.identity.options, request.options)) return call();
    const hash = requestHash(this.identity, await this.modelDigest(), kind, request);
    const send = async (): Promise<CachedAnswer> => {
      const started = performance.now();
      const response = await call();
      return {
        model: this.identity.name,
        response: structuredClone(response),
        durationMs: performance.now() - started,
        storedAt: new Date().toISOString(),
      };
    };
    let outcome: Awaited<ReturnType<RequestCache["answer"]>>;
    try {
      outcome = await this.cache.answer(this.identity.name, hash, send);
    } catch (error) {
      // An identical request in flight was aborted by ITS caller: this caller still wants an answer.
      if (error instanceof ModelAbortedError && !request.signal?.aborted) return call();
      throw error;
    }
    const { answer, from } = outcome;
    if (from === "sent") return answer.response as T;
    if (request.signal?.aborted) {
      throw new ModelAbortedError("MODEL_ABORTED", `cached call of ${this.id} aborted by the caller`, {
        cause: request.signal.reason,
      });
    }
    const response = structuredClone(answer.response) as T;
    if (request.onText && response.text) request.onText(response.text);
    return { ...response, cached: { durationMs: answer.durationMs } };
  }

  /** Read once; a failed read is tried again on the next call (the call itself then fails the same way). */
  private modelDigest(): Promise<string | undefined> {
    this.digest ??= Promise.resolve(this.inner.describe?.()).then(
      (facts) => facts?.digest,
      (error: unknown) => {
        this.digest = undefined;
        throw error;
      },
    );
    return this.digest;
  }
}
