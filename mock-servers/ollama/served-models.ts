/**
 * Which models the stand-in serves and what it says about them. By default any name (every one answered
 * by the same provider, with tool support); given a list — or in real mode, the known models below —
 * only those: other names get Ollama's 404, a model without `tools` its 400 for a tools request, and
 * each one reports its family, size, quantization, context length and capabilities in /api/show.
 * Also remembers which models are loaded and with which window (keep-alive), for cold starts and /api/ps:
 * as in Ollama, a request with another `num_ctx` than the loaded one reloads the model.
 */

import { createHash } from "node:crypto";
import { z } from "zod";

export interface ServedModel {
  name: string;
  /** Reports the "tools" capability and accepts `tools`. Default true. */
  tools?: boolean;
  /** Reports the "thinking" capability; thinks unless the request says `think: false`. Default false. */
  thinking?: boolean;
  /** The trained window (`<arch>.context_length`); `num_ctx` above it is capped to it. Default 32768. */
  contextLength?: number;
  /** Architecture and family, e.g. `qwen2`. Default `standin`. */
  family?: string;
  /** e.g. `3.1B`. */
  parameterSize?: string;
  /** e.g. `Q4_K_M`. */
  quantizationLevel?: string;
}

const DEFAULT_CONTEXT_LENGTH = 32_768;

/** What a real-mode stand-in serves: the facts Ollama's library gives for these tags. */
export const KNOWN_MODELS: readonly ServedModel[] = [
  { name: "qwen2.5:3b", family: "qwen2", parameterSize: "3.1B", quantizationLevel: "Q4_K_M", contextLength: 32_768 },
  { name: "qwen2.5:7b", family: "qwen2", parameterSize: "7.6B", quantizationLevel: "Q4_K_M", contextLength: 32_768 },
  { name: "llama3.2:3b", family: "llama", parameterSize: "3.2B", quantizationLevel: "Q4_K_M", contextLength: 131_072 },
  {
    name: "gemma2:2b",
    family: "gemma2",
    parameterSize: "2.6B",
    quantizationLevel: "Q4_0",
    contextLength: 8_192,
    tools: false,
  },
  {
    name: "qwen3:4b",
    family: "qwen3",
    parameterSize: "4.0B",
    quantizationLevel: "Q4_K_M",
    contextLength: 40_960,
    thinking: true,
  },
];

/** One entry of a `--models` file that is not a plain name. */
const modelSchema = z.strictObject({
  name: z.string().min(1),
  tools: z.boolean().optional(),
  thinking: z.boolean().optional(),
  contextLength: z.int().positive().optional(),
  family: z.string().min(1).optional(),
  parameterSize: z.string().optional(),
  quantizationLevel: z.string().optional(),
});

/** The models of a `--models` file's JSON (a list of names or ServedModel objects); throws naming the bad entry. */
export function parseModelList(json: unknown): ServedModel[] {
  if (!Array.isArray(json)) throw new Error("not a JSON list");
  return json.map((entry: unknown, index) => {
    if (typeof entry === "string" && entry !== "") return { name: entry };
    const parsed = modelSchema.safeParse(entry);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    throw new Error(`entry ${index}${issue?.path.length ? `.${issue.path.join(".")}` : ""}: ${issue?.message}`);
  });
}

/** Ollama's default keep_alive: a model stays loaded this long after its last request. */
export const DEFAULT_KEEP_ALIVE_MS = 5 * 60 * 1000;

export class ServedModels {
  private readonly listed: Map<string, ServedModel> | undefined;
  /** When each model was last used, how long it then stays loaded, and the window it was loaded with. */
  private readonly loaded = new Map<string, { usedAt: number; keepAliveMs: number; numCtx: number }>();

  constructor(
    models: readonly ServedModel[] | undefined,
    /** Listed by /api/tags when any name is served. */
    private readonly label: string,
  ) {
    this.listed = models ? new Map(models.map((model) => [withTag(model.name), model])) : undefined;
  }

  /** The model, or undefined when a restricted stand-in does not have it. */
  find(name: string): ServedModel | undefined {
    if (!this.listed) return { name };
    const model = this.listed.get(withTag(name));
    return model ? { ...model, name } : undefined;
  }

  names(): string[] {
    if (this.listed) return [...this.listed.values()].map((model) => model.name);
    return [...new Set([this.label, ...this.loaded.keys()])];
  }

  /** The model is in memory (used within its keep-alive), loaded with this window. */
  isLoaded(name: string, numCtx: number): boolean {
    const entry = this.loaded.get(name);
    return entry !== undefined && entry.numCtx === numCtx && this.alive(entry, Date.now());
  }

  /** A request used the model; it stays loaded `keepAliveMs` (negative: forever; 0: unloads now). */
  touch(name: string, numCtx: number, keepAliveMs = DEFAULT_KEEP_ALIVE_MS): void {
    this.loaded.set(name, { usedAt: Date.now(), keepAliveMs, numCtx });
  }

  /** Models in memory, with their window and when they expire. */
  running(): { name: string; numCtx: number; expiresAt: Date }[] {
    const now = Date.now();
    return [...this.loaded]
      .filter(([, entry]) => this.alive(entry, now))
      .map(([name, { usedAt, keepAliveMs, numCtx }]) => ({
        name,
        numCtx,
        expiresAt: new Date(keepAliveMs < 0 ? 8.64e15 : usedAt + keepAliveMs),
      }));
  }

  /** keep_alive 0 on an empty request: the model leaves memory now. */
  unload(name: string): void {
    this.loaded.delete(name);
  }

  private alive(entry: { usedAt: number; keepAliveMs: number }, now: number): boolean {
    return entry.keepAliveMs < 0 || now - entry.usedAt < entry.keepAliveMs;
  }
}

export function supportsTools(model: ServedModel): boolean {
  return model.tools !== false;
}

/**
 * The qwen3 chat template refuses a conversation without a user message, and Ollama answers 500 — as it
 * happens when truncation dropped the user's query from a long tool conversation.
 */
export function needsUserQuery(model: ServedModel): boolean {
  return model.family === "qwen3";
}

export function contextLengthOf(model: ServedModel): number {
  return model.contextLength ?? DEFAULT_CONTEXT_LENGTH;
}

export function capabilitiesOf(model: ServedModel): string[] {
  return ["completion", ...(supportsTools(model) ? ["tools"] : []), ...(model.thinking ? ["thinking"] : [])];
}

/** A stable sha256 per name, as /api/tags reports a model's digest. */
export function digestOf(name: string): string {
  return createHash("sha256")
    .update(`onsetlab-standin|${withTag(name)}`)
    .digest("hex");
}

/** Bytes on disk, estimated from the parameter count at ~4.8 bits per weight (Q4_K_M). */
export function sizeOf(model: ServedModel): number {
  const billions = Number.parseFloat(model.parameterSize ?? "");
  return Number.isFinite(billions) ? Math.round(billions * 0.6e9) : 0;
}

/** Ollama's default tag: `qwen2.5` means `qwen2.5:latest`. */
function withTag(name: string): string {
  return name.includes(":") ? name : `${name}:latest`;
}
