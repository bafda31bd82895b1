/**
 * Record / replay for any provider (DESIGN §4). A cassette is JSONL: one line per model call with the
 * canonical request (provider id, kind, stage, prompt or messages, tools, options — never signals,
 * time limits or keys) and what came back (the response, or the failure). A request's key is the
 * sha256 of its canonical JSON; replay answers each key's recorded answers in recorded order (a server
 * failure after the answers recorded after it) and turns a miss into a CassetteMissError — it never
 * guesses. A replayed failure keeps its invalid reason: a server failure still makes its item invalid.
 */

import { createHash } from "node:crypto";
import {
  appendFileSync,
  closeSync,
  existsSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
} from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";
import { canonicalJson, dropUndefined } from "../json.ts";
import type { JsonSchema } from "../tool-protocol/types.ts";
import {
  CassetteExistsError,
  CassetteFormatError,
  CassetteMissError,
  failureInvalid,
  ModelAbortedError,
  ModelError,
  ReplayedModelError,
} from "./errors.ts";
import {
  type ChatMessage,
  type ChatRequest,
  type ChatResponse,
  type ChatTool,
  type CompletionRequest,
  type CompletionResponse,
  type GenerationOptions,
  INVALID_REASONS,
  type InvalidReason,
  type ModelFacts,
  type ModelProvider,
  type ModelStage,
  type NativeToolCall,
  type WarmUp,
} from "./types.ts";

export const CASSETTE_VERSION = 1;

/** The part of a request that decides its answer: what the key hashes and the cassette keeps. */
export interface CassetteRequest {
  provider: string;
  kind: "complete" | "chat";
  stage: ModelStage;
  prompt?: string;
  messages?: ChatMessage[];
  tools?: ChatTool[];
  /** Constrained decoding's schema (ChatRequest.format). */
  format?: JsonSchema;
  options?: GenerationOptions;
}

export interface RecordedFailure {
  name: string;
  code: string;
  message: string;
  /** Why the failure made its item invalid rather than wrong (absent: it was the model's failure). */
  invalid?: InvalidReason;
}

export interface CassetteRecord {
  v: number;
  /** sha256 of the canonical request; replay recomputes it, so it is for people and grep. */
  key: string;
  request: CassetteRequest;
  /** A complete call answers `text` (toolCalls absent); a chat call answers text and tool calls. */
  response?: ChatResponse | CompletionResponse;
  error?: RecordedFailure;
}

export type Warn = (message: string) => void;

const defaultWarn: Warn = (message) => process.stderr.write(`warning: ${message}\n`);

export function cassetteRequest(
  provider: string,
  kind: "complete" | "chat",
  request: CompletionRequest | ChatRequest,
): CassetteRequest {
  return dropUndefined({
    provider,
    kind,
    stage: request.stage,
    prompt: "prompt" in request ? request.prompt : undefined,
    messages: "messages" in request ? request.messages : undefined,
    tools: "tools" in request && request.tools?.length ? request.tools : undefined,
    format: "format" in request ? request.format : undefined,
    options: request.options && Object.keys(request.options).length > 0 ? request.options : undefined,
  });
}

export function requestKey(request: CassetteRequest): string {
  return createHash("sha256").update(canonicalJson(request)).digest("hex");
}

// ─── recording ──────────────────────────────────────────────────────────────────────────────────

/**
 * Refuses to record onto a cassette that already holds calls unless `append` says so: a new recording
 * mixed silently into an old one replays answers of two different runs.
 */
export function checkRecordTarget(file: string, append: boolean): void {
  if (append || !existsSync(file)) return;
  const bytes = readFileSync(file);
  let calls = 0;
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) calls += 1;
  if (calls === 0) return;
  throw new CassetteExistsError(
    "CASSETTE_EXISTS",
    `--record ${file}: the cassette already holds ${calls} recorded calls; add --append to record onto it, or give a new file`,
    { context: { file, calls } },
  );
}

/** Wraps a provider: every call goes through, and its request and answer are appended to `file`. */
export class RecordingProvider implements ModelProvider {
  /** The server's facts and the warm-up go straight to the server: they are not answers to replay. */
  readonly describe?: () => Promise<ModelFacts>;
  readonly warmUp?: () => Promise<WarmUp>;

  constructor(
    private readonly inner: ModelProvider,
    readonly file: string,
    /** The id requests are keyed under (the replaying provider must use the same). */
    readonly id: string = inner.id,
    warn: Warn = defaultWarn,
  ) {
    prepareForAppend(file, warn);
    if (inner.describe) this.describe = () => inner.describe!();
    if (inner.warmUp) this.warmUp = () => inner.warmUp!();
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    return this.record(cassetteRequest(this.id, "complete", request), () => this.inner.complete(request));
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    return this.record(cassetteRequest(this.id, "chat", request), () => this.inner.chat(request));
  }

  private async record<T extends CompletionResponse>(request: CassetteRequest, call: () => Promise<T>): Promise<T> {
    // Copied before the call: a caller may change its messages array afterwards.
    const frozen = structuredClone(request);
    try {
      const response = await call();
      this.append({
        v: CASSETTE_VERSION,
        key: requestKey(frozen),
        request: frozen,
        response: structuredClone(response),
      });
      return response;
    } catch (error) {
      // Model failures are part of the run and replay as such; the caller's own abort is not.
      if (error instanceof ModelError && !(error instanceof ModelAbortedError)) {
        const invalid = failureInvalid(error);
        const failure: RecordedFailure = {
          name: error.name,
          code: error.code,
          message: error.message,
          ...(invalid ? { invalid } : {}),
        };
        this.append({ v: CASSETTE_VERSION, key: requestKey(frozen), request: frozen, error: failure });
      }
      throw error;
    }
  }

  /** One write of one whole line with O_APPEND: lines never interleave, a crash tears at most the last. */
  private append(record: CassetteRecord): void {
    appendFileSync(this.file, `${JSON.stringify(record)}\n`);
  }
}

/** Creates the folder; cuts a torn last line (a crash mid-write) so new lines start clean. */
function prepareForAppend(file: string, warn: Warn): void {
  mkdirSync(dirname(file), { recursive: true });
  if (!existsSync(file)) return;
  const fd = openSync(file, "r+");
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return;
    const content = readFileSync(fd);
    if (content[size - 1] === 0x0a) return;
    const keep = content.lastIndexOf(0x0a) + 1;
    ftruncateSync(fd, keep);
    warn(`${file}: dropped a torn last line (${size - keep} bytes) before appending`);
  } finally {
    closeSync(fd);
  }
}

// ─── replaying ──────────────────────────────────────────────────────────────────────────────────

const recordSchema = z.object({
  v: z.literal(CASSETTE_VERSION),
  key: z.string(),
  request: z.object({
    provider: z.string(),
    kind: z.enum(["complete", "chat"]),
    stage: z.string(),
    prompt: z.string().optional(),
    messages: z.array(z.object({ role: z.string(), content: z.string() }).loose()).optional(),
    tools: z.array(z.object({ name: z.string() }).loose()).optional(),
    format: z.record(z.string(), z.unknown()).optional(),
    options: z.record(z.string(), z.unknown()).optional(),
  }),
  response: z
    .object({
      text: z.string(),
      toolCalls: z
        .array(z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()) }).loose())
        .optional(),
      usage: z.object({ promptTokens: z.number(), completionTokens: z.number() }),
      timings: z.object({ totalMs: z.number() }).loose(),
    })
    .loose()
    .optional(),
  error: z
    .object({ name: z.string(), code: z.string(), message: z.string(), invalid: z.enum(INVALID_REASONS).optional() })
    .optional(),
});

/**
 * Reads a cassette. A torn last line (no line end, not JSON) is skipped with a warning; any other bad
 * line is a CassetteFormatError naming file:line.
 */
export function loadCassette(file: string, warn: Warn = defaultWarn): CassetteRecord[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new CassetteFormatError("CASSETTE_UNREADABLE", `cannot read cassette ${file}: ${(error as Error).message}`, {
      context: { file },
      cause: error,
    });
  }
  const lines = text.split("\n");
  const records: CassetteRecord[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    const torn = index === lines.length - 1; // only the last piece can lack its "\n"
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      if (torn) {
        warn(`${file}:${index + 1}: ignored a torn last line (an interrupted write)`);
        return;
      }
      throw badLine(file, index + 1, `not JSON (${(error as Error).message})`, error);
    }
    const parsed = recordSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw badLine(file, index + 1, `${issue?.path.join(".") || "(line)"}: ${issue?.message}`, parsed.error);
    }
    if (!parsed.data.response === !parsed.data.error) {
      throw badLine(file, index + 1, "a record needs exactly one of `response` and `error`");
    }
    records.push(json as CassetteRecord);
  });
  return records;
}

function badLine(file: string, line: number, reason: string, cause?: unknown): CassetteFormatError {
  return new CassetteFormatError("CASSETTE_CORRUPT", `${file}:${line}: not a cassette record: ${reason}`, {
    context: { file, line },
    cause,
  });
}

/** A recorded answer as the provider gave it: the text, usage and timings, and how the prompt fitted the window. */
function answerOf(response: CompletionResponse, toolCalls?: NativeToolCall[]): CompletionResponse {
  const { text, usage, timings, context, invalid, doneReason, thinking } = response;
  return dropUndefined({ text, toolCalls, usage, timings, context, invalid, doneReason, thinking });
}

/** Answers from a cassette only. The same request asked twice gets its two recorded answers in order. */
export class ReplayProvider implements ModelProvider {
  private readonly queues = new Map<string, CassetteRecord[]>();

  constructor(
    readonly file: string,
    /** The id the cassette was recorded under (the provider being replayed). */
    readonly id: string,
    warn: Warn = defaultWarn,
  ) {
    for (const record of loadCassette(file, warn)) {
      const key = requestKey(record.request);
      const queue = this.queues.get(key) ?? [];
      queue.push(record);
      this.queues.set(key, queue);
    }
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    return answerOf(this.answer(cassetteRequest(this.id, "complete", request), request));
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    const response = this.answer(cassetteRequest(this.id, "chat", request), request);
    return answerOf(response, "toolCalls" in response ? response.toolCalls : []) as ChatResponse;
  }

  /** Recorded answers not yet replayed, by request key (a finished replay of the same run leaves none). */
  remaining(): number {
    return [...this.queues.values()].reduce((sum, queue) => sum + queue.length, 0);
  }

  private answer(request: CassetteRequest, call: CompletionRequest | ChatRequest): ChatResponse | CompletionResponse {
    if (call.signal?.aborted) {
      throw new ModelAbortedError("MODEL_ABORTED", `replay of ${this.file} aborted by the caller`, {
        cause: call.signal.reason,
      });
    }
    const key = requestKey(request);
    const queue = this.queues.get(key) ?? [];
    // A server failure is not the model's answer: when the same request was answered later (a resume ran
    // it again), the answer replays first.
    const firstAnswer = queue.findIndex((recorded) => recorded.error?.invalid !== "server_error");
    const record = queue.splice(Math.max(0, firstAnswer), 1)[0];
    if (!record) {
      throw new CassetteMissError(
        "CASSETTE_MISS",
        `cassette ${this.file} has no ${this.queues.has(key) ? "more answers" : "answer"} for the ${request.stage} request ${key} ` +
          `(${request.provider}, ${request.kind}); replay never guesses — record the run again`,
        { context: { file: this.file, stage: request.stage, key, provider: request.provider } },
      );
    }
    if (record.error) {
      throw new ReplayedModelError(record.error.code, record.error.message, record.error.invalid, {
        context: { file: this.file, key, recordedAs: record.error.name },
      });
    }
    const response = structuredClone(record.response!);
    if (call.onText && response.text) call.onText(response.text);
    return response;
  }
}
