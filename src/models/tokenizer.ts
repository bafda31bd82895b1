/**
 * A server's own tokenizer, asked for a prompt's exact token count before the prompt is sent, where the
 * OpenAI-compatible server offers one (README of this folder: "Tokenizer endpoints"):
 * - vLLM: `POST /tokenize` with `model` and `prompt`, or `messages` (+ `tools`) with the chat template
 *   applied → `{count, max_model_len, tokens}`;
 * - llama.cpp server: `POST /apply-template` (the chat request's messages and tools → `{prompt}`) and
 *   `POST /tokenize` (`content`, `add_special` → `{tokens}`), the two together what a chat request costs.
 * Both live at the server's root, beside `/v1`. Which one a server speaks is learnt once per root by one
 * probe (a `/tokenize` body vLLM reads: `count` in the answer is vLLM, a bare `tokens` list is
 * llama.cpp) and remembered for the process; a 404/405 (Ollama, LiteLLM, MLX …) is remembered as none,
 * as is any other failed probe, so a server without a tokenizer costs one request and no error.
 */

import { CONTEXT_REFUSAL } from "./context.ts";
import { ProviderHttpError, ProviderProtocolError } from "./errors.ts";
import type { OpenAIMessage, OpenAITool } from "./openai-wire.ts";

export type TokenizerFlavour = "vllm" | "llamacpp" | "none";

/** models.yaml's `tokenizer:` of an openai entry: ask the server's tokenizer when it has one, or never. */
export const TOKENIZER_SETTINGS = ["auto", "off"] as const;
export type TokenizerSetting = (typeof TOKENIZER_SETTINGS)[number];

/** What a server's tokenizer was found to be; `reason` says why there is none. */
export interface TokenizerProbe {
  flavour: TokenizerFlavour;
  reason?: string;
}

/** What is counted: a completion's prompt, or a chat's messages and tools in OpenAI's wire form. */
export type CountInput = { prompt: string } | { messages: OpenAIMessage[]; tools?: OpenAITool[] };

/**
 * A count: the prompt's tokens, the tokenizer's refusal of a prompt longer than the model's window (vLLM),
 * or why there is no count (the server has no tokenizer, or it failed): the estimate then stands.
 */
export type TokenCount = { tokens: number } | { refused: string } | { uncounted: string };

/** The probes of every server this process asked, by root URL. */
export type TokenizerProbes = Map<string, Promise<TokenizerProbe>>;

const SHARED_PROBES: TokenizerProbes = new Map();

/** A probe, or a count's request, that takes longer than this is given up (the estimate then decides). */
const TOKENIZER_TIMEOUT_MS = 10_000;

/** Statuses that say the endpoint is not there: remembered, never asked again. */
const ABSENT = new Set([404, 405, 501]);

export interface ServerTokenizerOptions {
  /** The OpenAI base URL (`…/v1`); the tokenizer endpoints are at its root. */
  baseUrl: string;
  /** The model name the server knows (vLLM's body names it). */
  model: string;
  /** The request headers (the API key): the tokenizer endpoints are behind the same key as the rest. */
  headers: () => Record<string, string>;
  /** Where probes are remembered; default: one table for the whole process. */
  probes?: TokenizerProbes;
}

/** Whether a tokenizer endpoint's failure says it is not there (not this part of one, at least). */
function isAbsent(error: unknown): error is ProviderHttpError {
  return error instanceof ProviderHttpError && error.status !== undefined && ABSENT.has(error.status);
}

export class ServerTokenizer {
  readonly root: string;
  private readonly probes: TokenizerProbes;

  constructor(private readonly options: ServerTokenizerOptions) {
    this.root = options.baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
    this.probes = options.probes ?? SHARED_PROBES;
  }

  /** What the server's tokenizer is, probed on first use and remembered per root URL. */
  probe(): Promise<TokenizerProbe> {
    let known = this.probes.get(this.root);
    if (!known) {
      known = this.runProbe();
      this.probes.set(this.root, known);
    }
    return known;
  }

  /**
   * The input's exact token count, or why there is none: the server has no tokenizer, or it failed (the
   * character estimate then stands). A 404/405 met while counting (a llama.cpp without /apply-template)
   * is remembered as no tokenizer. `signal` is the call's: its abort is thrown, not swallowed.
   */
  async count(input: CountInput, signal: AbortSignal): Promise<TokenCount> {
    const { flavour, reason } = await this.probe();
    if (flavour === "none") return { uncounted: `no tokenizer at ${this.root} (${reason ?? "none found"})` };
    try {
      return flavour === "vllm" ? await this.countVllm(input, signal) : await this.countLlamaCpp(input, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      if (isAbsent(error)) {
        this.probes.set(this.root, Promise.resolve({ flavour: "none", reason: error.message }));
      }
      return { uncounted: `the tokenizer at ${this.root} failed (${(error as Error).message})` };
    }
  }

  private async runProbe(): Promise<TokenizerProbe> {
    try {
      const answer = await this.post("/tokenize", { model: this.options.model, prompt: "OnsetLab" });
      if (typeof answer.count === "number") return { flavour: "vllm" };
      if (Array.isArray(answer.tokens)) return { flavour: "llamacpp" };
      return { flavour: "none", reason: "/tokenize answered without `count` or `tokens`" };
    } catch (error) {
      return { flavour: "none", reason: error instanceof Error ? error.message : String(error) };
    }
  }

  private async countVllm(input: CountInput, signal: AbortSignal): Promise<TokenCount> {
    const body =
      "prompt" in input
        ? { model: this.options.model, prompt: input.prompt }
        : {
            model: this.options.model,
            messages: input.messages,
            ...(input.tools?.length ? { tools: input.tools } : {}),
            add_generation_prompt: true,
          };
    try {
      const answer = await this.post("/tokenize", body, signal);
      if (typeof answer.count !== "number") throw unexpected("/tokenize answered without `count`");
      return { tokens: answer.count };
    } catch (error) {
      // vLLM checks the prompt against max_model_len while tokenizing: a refusal is the count's verdict
      if (error instanceof ProviderHttpError && error.status === 400 && CONTEXT_REFUSAL.test(error.message)) {
        return { refused: error.message };
      }
      throw error;
    }
  }

  /** llama.cpp counts a chat request's prompt as its completion path does: the template, then BOS and specials. */
  private async countLlamaCpp(input: CountInput, signal: AbortSignal): Promise<TokenCount> {
    let content: unknown;
    if ("prompt" in input) content = input.prompt;
    else {
      const body = { messages: input.messages, ...(input.tools?.length ? { tools: input.tools } : {}) };
      content = (await this.post("/apply-template", body, signal)).prompt;
      if (typeof content !== "string") throw unexpected("/apply-template answered without `prompt`");
    }
    const answer = await this.post("/tokenize", { content, add_special: true }, signal);
    if (!Array.isArray(answer.tokens)) throw unexpected("/tokenize answered without `tokens`");
    return { tokens: answer.tokens.length };
  }

  private async post(path: string, body: object, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const limit = AbortSignal.timeout(TOKENIZER_TIMEOUT_MS);
    const response = await fetch(`${this.root}${path}`, {
      method: "POST",
      headers: { ...this.options.headers(), "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, limit]) : limit,
    });
    const text = await response.text();
    // a 400's text may be vLLM's "maximum context length"
    if (!response.ok) {
      const detail = ABSENT.has(response.status) ? "" : `: ${text.slice(0, 300)}`;
      throw new ProviderHttpError(response.status, `${path} answered ${response.status}${detail}`, {
        context: { url: `${this.root}${path}` },
      });
    }
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch (cause) {
      throw unexpected(`${path} answered ${text.slice(0, 120)}`, cause);
    }
    if (typeof answer !== "object" || answer === null) throw unexpected(`${path} answered ${text.slice(0, 120)}`);
    return answer as Record<string, unknown>;
  }
}

/** An answer of a tokenizer endpoint not in the shape its server documents. */
function unexpected(message: string, cause?: unknown): ProviderProtocolError {
  return new ProviderProtocolError("TOKENIZER_ANSWER", message, cause === undefined ? {} : { cause });
}
