/**
 * The stand-in's realistic behaviours, each switchable alone: `real: true` turns all of them on at the
 * values a stock Ollama on a small machine has; without it the stand-in is the lenient server it always
 * was (any model name, nothing cut, nothing queued).
 */

import { KNOWN_MODELS, type ServedModel } from "./served-models.ts";

export interface StandinBehaviour {
  /** A prompt over the window is cut from the front; `prompt_eval_count` is then the window. */
  truncate: boolean;
  /** The window when a request sets no `num_ctx` (always, on the OpenAI-compatible API). */
  defaultNumCtx: number;
  /** The output is cut at `num_predict` / `max_tokens`, with done_reason / finish_reason "length". */
  cutOutput: boolean;
  /** The models served; undefined: any name. */
  knownModels: readonly ServedModel[] | undefined;
  /** The first request to a model that is not loaded waits this long and reports it as `load_duration`. */
  coldStartMs: number;
  /** Requests waiting for a busy model beyond this many get 503; undefined: no limit. */
  maxQueue: number | undefined;
  /** Requests one model serves at once (OLLAMA_NUM_PARALLEL); undefined: no limit. */
  parallel: number | undefined;
  /**
   * The tokenizer endpoints served beside the APIs, as another server has them (Ollama has none):
   * vLLM's `/tokenize`, or llama.cpp's `/tokenize` and `/apply-template` (tokenizer-routes.ts).
   */
  tokenizer: StandinTokenizer;
  /**
   * Constrained decoding is ignored: Ollama's `format` and the OpenAI API's `response_format` are read but
   * not honoured, as a server without grammar support (or an old one) answers — freely.
   */
  ignoreFormat: boolean;
}

export const STANDIN_TOKENIZERS = ["none", "vllm", "llamacpp"] as const;
export type StandinTokenizer = (typeof STANDIN_TOKENIZERS)[number];

/** Ollama's default window below 24 GiB of VRAM. */
export const OLLAMA_DEFAULT_NUM_CTX = 4096;

const LENIENT: StandinBehaviour = {
  truncate: false,
  defaultNumCtx: OLLAMA_DEFAULT_NUM_CTX,
  cutOutput: false,
  knownModels: undefined,
  coldStartMs: 0,
  maxQueue: undefined,
  parallel: undefined,
  tokenizer: "none",
  ignoreFormat: false,
};

const REAL: StandinBehaviour = {
  truncate: true,
  defaultNumCtx: OLLAMA_DEFAULT_NUM_CTX,
  cutOutput: true,
  knownModels: KNOWN_MODELS,
  coldStartMs: 0,
  maxQueue: undefined,
  parallel: 1,
  tokenizer: "none",
  ignoreFormat: false,
};

/**
 * Real mode's (or the lenient) defaults, with the given behaviours set over them. A queue limit needs
 * requests to queue: `maxQueue` without any `parallel` limit serves one request per model at a time.
 */
export function resolveBehaviour(real: boolean, behaviour: Partial<StandinBehaviour> = {}): StandinBehaviour {
  const defined = Object.fromEntries(Object.entries(behaviour).filter(([, value]) => value !== undefined));
  const resolved: StandinBehaviour = { ...(real ? REAL : LENIENT), ...defined };
  return resolved.maxQueue !== undefined && resolved.parallel === undefined ? { ...resolved, parallel: 1 } : resolved;
}
