/**
 * Record / replay for any provider (DESIGN §4). A cassette is JSONL: one line per model call with the
 * canonical request (provider id, kind, stage, prompt or messages, tools, options — never signals,
 * time limits or keys) and what came back (the response, or the failure). A request's key is the
 * sha256 of its canonical JSON; replay answers each key's recorded answers in recorded order, a later
 * session's (a resume's, which ran its tasks again from their first call) before an earlier one's, and
 * turns a miss into a CassetteMissError — it never guesses. A failed call is recorded with its class, code, message, HTTP
 * status and invalid reason, and replays as the same typed error: a server failure still makes its item
 * invalid, an unreachable server still stops the run. The caller's own abort is not recorded (it is the
 * harness stopping, not the model failing).
 *
 * Format 2 added each failure's class details and each call's session; format 1 lines are still read:
 * their failures replay as a ReplayedModelError with the recorded code, message and invalid reason.
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
  ContextOverflowError,
  failureInvalid,
  ModelAbortedError,
  ModelError,
  ModelNotFoundError,
  ModelTimeoutError,
  PromptTooLongError,
  ProviderHttpError,
  ProviderProtocolError,
  ProviderUnreachableError,
  ReplayedModelError,
  ToolsUnsupportedError,
} from "./errors.ts";
import { isTransient } from "./http.ts";
import {
  type CallContext,
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

export const CASSETTE_VERSION = 2;

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
  /** The error's class (ProviderHttpError, ModelTimeoutError…): replay throws that class again. */
  name: string;
  code: string;
  message: string;
  /** The status the server answered with (ProviderHttpError). Format 2. */
  status?: number;
  /** Whether the provider would have tried it again (its retries had run out by then). Format 2. */
  transient?: boolean;
  /** Why the failure made its item invalid rather than wrong (absent: it was the model's failure). */
  invalid?: InvalidReason;
  /** A prompt the server's tokenizer counted over the window: its accounting (PromptTooLongError). Format 2. */
  context?: CallContext;
}

export interface CassetteRecord {
  v: number;
  /** sha256 of the canonical request; replay recomputes it, so it is for people and grep. */
  key: string;
  request: CassetteRequest;
  /** A complete call answers `text` (toolCalls absent); a chat call answers text and tool calls. */
  response?: ChatResponse | CompletionResponse;
  error?: RecordedFailure;
  /** Which session of the bench run made the call: 0 the run, 1 its first resume… Format 2. */
  session?: number;
  /**
   * The order the call was asked in among its recorder's identical requests (0 first). Lines are written
   * as calls finish, so two identical calls in flight at once can finish in the other order. Format 2.
   */
  ask?: number;
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
  /** How many times each request key has been asked so far. */
  private readonly asked = new Map<string, number>();

  constructor(
    private readonly inner: ModelProvider,
    readonly file: string,
    /** The id requests are keyed under (the replaying provider must use the same). */
    readonly id: string = inner.id,
    warn: Warn = defaultWarn,
    /** The bench run's session recording (0 the run, 1 its first resume…): tells a resume's answers apart. */
    private readonly session = 0,
  ) {
    prepareForAppend(file, warn);
    if (inner.describe) this.describe = () => inner.describe!();
    if (inner.warmUp) this.warmUp = () => inner.warmUp!();
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    return this.record(cassetteRequest(this.id, "complete", request), request.signal, () =>
      this.inner.complete(request),
    );
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    return this.record(cassetteRequest(this.id, "chat", request), request.signal, () => this.inner.chat(request));
  }

  private async record<T extends CompletionResponse>(
    request: CassetteRequest,
    signal: AbortSignal | undefined,
    call: () => Promise<T>,
  ): Promise<T> {
    // Copied before the call: a caller may change its messages array afterwards.
    const frozen = structuredClone(request);
    const key = requestKey(frozen);
    const ask = this.asked.get(key) ?? 0;
    this.asked.set(key, ask + 1);
    const line = { v: CASSETTE_VERSION, key, request: frozen, session: this.session, ask };
    try {
      const response = await call();
      this.append({ ...line, response: structuredClone(response) });
      return response;
    } catch (error) {
      // Model failures are part of the run and replay as such. The caller's abort (the run stopping: Ctrl-C,
      // another call's outage) is not the model's failure, and a replay of the run never makes it.
      if (error instanceof ModelError && !(error instanceof ModelAbortedError) && !signal?.aborted) {
        this.append({ ...line, error: recordedFailure(error) });
      }
      throw error;
    }
  }

  /** One write of one whole line with O_APPEND: lines never interleave, a crash tears at most the last. */
  private append(record: CassetteRecord): void {
    appendFileSync(this.file, `${JSON.stringify(record)}\n`);
  }
}

function recordedFailure(error: ModelError): RecordedFailure {
  const invalid = failureInvalid(error);
  return {
    name: error.name,
    code: error.code,
    message: error.message,
    ...(error instanceof ProviderHttpError && error.status !== undefined ? { status: error.status } : {}),
    transient: isTransient(error),
    ...(invalid ? { invalid } : {}),
    ...(error instanceof PromptTooLongError ? { context: error.callContext } : {}),
  };
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
  v: z.union([z.literal(1), z.literal(CASSETTE_VERSION)]),
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
    .object({
      name: z.string(),
      code: z.string(),
      message: z.string(),
      status: z.number().int().optional(),
      transient: z.boolean().optional(),
      invalid: z.enum(INVALID_REASONS).optional(),
      context: z.object({ estimate: z.number() }).loose().optional(),
    })
    .optional(),
  session: z.number().int().nonnegative().optional(),
  ask: z.number().int().nonnegative().optional(),
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

/**
 * A recorded answer as the provider gave it: the text, usage and timings, how the prompt fitted the window,
 * and what the run's record notes of the call (the prefix it shared, a cache hit, the URL that answered).
 */
function answerOf(response: CompletionResponse, toolCalls?: NativeToolCall[]): CompletionResponse {
  const { text, usage, timings, context, invalid, doneReason, thinking, sharedPrefixTokens, cached, servedBy } =
    response;
  return dropUndefined({
    text,
    toolCalls,
    usage,
    timings,
    context,
    invalid,
    doneReason,
    thinking,
    sharedPrefixTokens,
    cached,
    servedBy,
  });
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
    // A resume runs a task again from its first call, so each of that task's requests was answered anew in a
    // later session: those answers replay first, so that one replay follows the path the resumed task took
    // and gives the run's final records. Within a session, in the order the calls were asked (else in the
    // order they finished). Format 1 lines keep no session.
    for (const queue of this.queues.values()) {
      if (queue.every((record) => record.session !== undefined))
        queue.sort((a, b) => (b.session as number) - (a.session as number) || (a.ask ?? 0) - (b.ask ?? 0));
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
    // In the queue's order (a later session's answers first); in a format 1 cassette a server failure that a
    // resume ran again is passed over for what the resume got, and stays for a further ask. The last entry is
    // never passed over.
    const record = queue.splice(
      queue.findIndex((recorded, at) => !replacedByResume(recorded, queue.slice(at + 1))),
      1,
    )[0];
    if (!record) {
      throw new CassetteMissError(
        "CASSETTE_MISS",
        `cassette ${this.file} has no ${this.queues.has(key) ? "more answers" : "answer"} for the ${request.stage} request ${key} ` +
          `(${request.provider}, ${request.kind}); replay never guesses — record the run again`,
        { context: { file: this.file, stage: request.stage, key, provider: request.provider } },
      );
    }
    if (record.error) throw replayedError(record, { file: this.file, key });
    const response = structuredClone(record.response!);
    if (call.onText && response.text) call.onText(response.text);
    return response;
  }
}

/**
 * Format 1 kept no sessions: a server failure followed by another answer to its request was taken to
 * have been run again by a resume, whose answer replays instead.
 */
function replacedByResume(recorded: CassetteRecord, later: readonly CassetteRecord[]): boolean {
  if (recorded.session !== undefined || recorded.error?.invalid !== "server_error") return false;
  return later.some((next) => next.error?.invalid !== "server_error");
}

type ModelErrorClass = new (
  code: string,
  message: string,
  options?: { context?: Record<string, unknown> },
) => ModelError;

/** The failures a provider throws whose constructor takes a code and a message. */
const FAILURE_CLASSES = new Map<string, ModelErrorClass>(
  [
    ProviderUnreachableError,
    ModelNotFoundError,
    ToolsUnsupportedError,
    ModelTimeoutError,
    ContextOverflowError,
    ProviderProtocolError,
  ].map((Class) => [Class.name, Class]),
);

/**
 * The recorded failure as the class it was thrown as, so the harness's every check on it (outage, invalid
 * reason, retry) answers as it did when recorded. A format 1 failure, a class not known here, or one whose
 * rebuilt invalid reason is not the recorded one (the rule changed since) is a ReplayedModelError carrying
 * the recorded reason.
 */
function replayedError(record: CassetteRecord, context: Record<string, unknown>): ModelError {
  const failure = record.error!;
  const options = { context: { ...context, replayed: true } };
  const again = record.v === 1 ? undefined : rebuild(failure, options);
  if (again && again.code === failure.code && failureInvalid(again) === failure.invalid) return again;
  return new ReplayedModelError(failure.code, failure.message, failure.invalid, {
    context: { ...options.context, recordedAs: failure.name },
  });
}

function rebuild(failure: RecordedFailure, options: { context: Record<string, unknown> }): ModelError | undefined {
  if (failure.name === "ProviderHttpError") return new ProviderHttpError(failure.status, failure.message, options);
  if (failure.name === "PromptTooLongError") {
    return failure.context && new PromptTooLongError(failure.message, failure.context, options);
  }
  const Class = FAILURE_CLASSES.get(failure.name);
  return Class && new Class(failure.code, failure.message, options);
}
