import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { canonicalJson } from "../json.ts";
import {
  cassetteRequest,
  checkRecordTarget,
  loadCassette,
  RecordingProvider,
  ReplayProvider,
  requestKey,
} from "./cassette.ts";
import {
  CassetteExistsError,
  CassetteFormatError,
  CassetteMissError,
  ContextOverflowError,
  failureInvalid,
  ModelAbortedError,
  type ModelError,
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
import { ScriptedModel } from "./scripted.ts";
import type { CallContext, ChatRequest, InvalidReason } from "./types.ts";

let dir: string;
let file: string;
const warnings: string[] = [];
const warn = (message: string) => warnings.push(message);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "cassette-"));
  file = join(dir, "nested", "run.cassette.jsonl");
  warnings.length = 0;
});

const chatRequest: ChatRequest = {
  stage: "native",
  messages: [{ role: "user", content: "who am I" }],
  tools: [{ name: "get_me", description: "the user", parameters: { type: "object", properties: {} } }],
  options: { temperature: 0 },
};

describe("record → replay", () => {
  it("replays every answer exactly, and the same request asked twice gets its two answers in order", async () => {
    const live = new ScriptedModel(
      {
        planner: ["#E1 = get_me()", "#E1 = get_me(verbose=true)"],
        native: [
          {
            toolCalls: [{ id: "call_1", name: "get_me", arguments: {} }],
            usage: { promptTokens: 9, completionTokens: 4 },
          },
        ],
      },
      "ollama:qwen2.5:3b",
    );
    const recorder = new RecordingProvider(live, file, live.id, warn);
    const recorded = [
      await recorder.complete({ stage: "planner", prompt: "Task: who am I", options: { temperature: 0 } }),
      await recorder.complete({ stage: "planner", prompt: "Task: who am I", options: { temperature: 0 } }),
      await recorder.chat(chatRequest),
    ];

    const replay = new ReplayProvider(file, "ollama:qwen2.5:3b", warn);
    expect(replay.remaining()).toBe(3);
    const replayed = [
      await replay.complete({ stage: "planner", prompt: "Task: who am I", options: { temperature: 0 } }),
      await replay.complete({ stage: "planner", prompt: "Task: who am I", options: { temperature: 0 } }),
      await replay.chat(chatRequest),
    ];
    expect(JSON.stringify(replayed)).toBe(JSON.stringify(recorded));
    expect(replayed.map((response) => response.text)).toEqual(["#E1 = get_me()", "#E1 = get_me(verbose=true)", ""]);
    expect(replay.remaining()).toBe(0);
    expect(warnings).toEqual([]);
  });

  it("turns a miss into CassetteMissError naming the stage and the request hash — also one asked more often than recorded", async () => {
    const recorder = new RecordingProvider(
      new ScriptedModel({ solver: ["Done."] }, "sim:oracle"),
      file,
      "sim:oracle",
      warn,
    );
    await recorder.complete({ stage: "solver", prompt: "Answer: x" });
    const replay = new ReplayProvider(file, "sim:oracle", warn);
    await replay.complete({ stage: "solver", prompt: "Answer: x" });

    const again = await replay.complete({ stage: "solver", prompt: "Answer: x" }).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(CassetteMissError);
    const key = requestKey(cassetteRequest("sim:oracle", "complete", { stage: "solver", prompt: "Answer: x" }));
    expect((again as Error).message).toContain(`no more answers for the solver request ${key}`);

    const other = await replay.complete({ stage: "router", prompt: "Answer: y" }).catch((error: unknown) => error);
    expect(other).toBeInstanceOf(CassetteMissError);
    expect((other as CassetteMissError).context).toMatchObject({ stage: "router", file });
    // A different provider id is a different request.
    await expect(
      new ReplayProvider(file, "sim:slm-3b", warn).complete({ stage: "solver", prompt: "Answer: x" }),
    ).rejects.toThrow(CassetteMissError);
  });

  it("does not record the caller's abort, nor any failure once the caller's signal fired", async () => {
    const aborted = new ModelAbortedError("MODEL_ABORTED", "aborted by the caller");
    const late = new ModelTimeoutError("MODEL_TIMEOUT", "no answer from Ollama at x within 10 ms");
    const live = new ScriptedModel({ planner: [{ error: aborted }, { error: late }] }, "ollama:m");
    const recorder = new RecordingProvider(live, file, live.id, warn);
    await expect(recorder.complete({ stage: "planner", prompt: "p" })).rejects.toBe(aborted);
    const stopped = new AbortController();
    stopped.abort(new Error("the run stopped"));
    await expect(recorder.complete({ stage: "planner", prompt: "q", signal: stopped.signal })).rejects.toBe(late);
    expect(existsSync(file) ? readFileSync(file, "utf8") : "").toBe("");
  });

  it("replays the answers and failures of one request in the order they happened: failure, then success", async () => {
    const unavailable = new ProviderHttpError(503, "Ollama at x answered 503 after 3 tries");
    const live = new ScriptedModel(
      { router: [{ error: unavailable }, "ACTION", { error: unavailable }, "DIRECT"] },
      "ollama:m",
    );
    const recorder = new RecordingProvider(live, file, live.id, warn);
    const ask = (provider: RecordingProvider | ReplayProvider) =>
      provider.complete({ stage: "router", prompt: "r" }).then(
        (answer) => answer.text,
        (error: unknown) => `${(error as Error).name}: ${(error as Error).message}`,
      );
    const recorded = [await ask(recorder), await ask(recorder), await ask(recorder), await ask(recorder)];
    expect(recorded).toEqual([
      `ProviderHttpError: ${unavailable.message}`,
      "ACTION",
      `ProviderHttpError: ${unavailable.message}`,
      "DIRECT",
    ]);
    const replay = new ReplayProvider(file, "ollama:m", warn);
    expect([await ask(replay), await ask(replay), await ask(replay), await ask(replay)]).toEqual(recorded);
  });

  it("replays the answer a resume got before the server failure it ran again; the failure stays for a further ask", async () => {
    const unavailable = new ProviderHttpError(500, "Ollama at x answered 500");
    // the run (session 0), then its resume (session 1, which ran the failed request again), on one cassette
    const run = new ScriptedModel({ planner: [{ error: unavailable }] }, "ollama:m");
    await expect(
      new RecordingProvider(run, file, run.id, warn, 0).complete({ stage: "planner", prompt: "p" }),
    ).rejects.toBe(unavailable);
    const resume = new ScriptedModel({ planner: ["#E1 = get_me()"] }, "ollama:m");
    await new RecordingProvider(resume, file, resume.id, warn, 1).complete({ stage: "planner", prompt: "p" });

    const replay = new ReplayProvider(file, "ollama:m", warn);
    expect((await replay.complete({ stage: "planner", prompt: "p" })).text).toBe("#E1 = get_me()");
    const again = await replay.complete({ stage: "planner", prompt: "p" }).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(ProviderHttpError);
    expect(failureInvalid(again)).toBe("server_error");
  });

  it("replays a resumed task along the path its resume took, from its first call on", async () => {
    const unavailable = new ProviderHttpError(500, "Ollama at x answered 500");
    // the run (session 0): the plan is A, then the solver's call fails; the resume (session 1) runs the task
    // again from its first call, and the model (sampling) plans B this time
    const run = new ScriptedModel({ planner: ["plan A"], solver: [{ error: unavailable }] }, "ollama:m");
    const recordRun = new RecordingProvider(run, file, run.id, warn, 0);
    await recordRun.complete({ stage: "planner", prompt: "q" });
    await expect(recordRun.complete({ stage: "solver", prompt: "plan A" })).rejects.toBe(unavailable);
    const resume = new ScriptedModel({ planner: ["plan B"], solver: ["done B"] }, "ollama:m");
    const recordResume = new RecordingProvider(resume, file, resume.id, warn, 1);
    await recordResume.complete({ stage: "planner", prompt: "q" });
    await recordResume.complete({ stage: "solver", prompt: "plan B" });

    const replay = new ReplayProvider(file, "ollama:m", warn);
    const plan = (await replay.complete({ stage: "planner", prompt: "q" })).text;
    expect(plan).toBe("plan B");
    expect((await replay.complete({ stage: "solver", prompt: plan })).text).toBe("done B");
  });

  it("replays two identical calls in the order they were asked, not the order they finished", async () => {
    const unavailable = new ProviderHttpError(500, "Ollama at x answered 500");
    const settle: ((outcome: { text: string } | Error) => void)[] = [];
    const inner = new ScriptedModel({}, "ollama:m");
    inner.complete = () =>
      new Promise((resolve, reject) => {
        settle.push((outcome) =>
          outcome instanceof Error
            ? reject(outcome)
            : resolve({ text: outcome.text, usage: { promptTokens: 1, completionTokens: 1 }, timings: { totalMs: 1 } }),
        );
      });
    const recorder = new RecordingProvider(inner, file, inner.id, warn, 0);
    const first = recorder.complete({ stage: "router", prompt: "same" }).catch((error: unknown) => error);
    const second = recorder.complete({ stage: "router", prompt: "same" });
    // the second call finishes first; the first fails after it
    settle[1]!({ text: "TOOL" });
    await second;
    settle[0]!(unavailable);
    expect(await first).toBe(unavailable);

    const replay = new ReplayProvider(file, "ollama:m", warn);
    const replayedFirst = await replay.complete({ stage: "router", prompt: "same" }).catch((error: unknown) => error);
    expect(replayedFirst).toBeInstanceOf(ProviderHttpError);
    expect((await replay.complete({ stage: "router", prompt: "same" })).text).toBe("TOOL");
  });

  it("streams a replayed text to onText in one piece", async () => {
    const recorder = new RecordingProvider(new ScriptedModel({ solver: ["It is 4."] }, "m"), file, "m", warn);
    await recorder.complete({ stage: "solver", prompt: "2+2" });
    const pieces: string[] = [];
    await new ReplayProvider(file, "m", warn).complete({
      stage: "solver",
      prompt: "2+2",
      onText: (piece) => pieces.push(piece),
    });
    expect(pieces).toEqual(["It is 4."]);
  });
});

const callContext: CallContext = {
  window: 4096,
  windowSource: "set",
  estimate: 5000,
  countSource: "tokenizer",
  counted: 4200,
};

/** One failure of each kind a provider throws, and what the recorded line says of it. */
const FAILURES: { error: ModelError; status?: number; transient: boolean; invalid?: InvalidReason }[] = [
  {
    error: new ProviderUnreachableError("PROVIDER_UNREACHABLE", "cannot reach Ollama at x (refused)"),
    transient: false,
  },
  { error: new ModelNotFoundError("MODEL_NOT_FOUND", "model 'm' not found at x: ollama pull m"), transient: false },
  { error: new ToolsUnsupportedError("TOOLS_UNSUPPORTED", "m does not support tools"), transient: false },
  { error: new ModelTimeoutError("MODEL_TIMEOUT", "no answer from Ollama at x within 10 ms"), transient: false },
  {
    error: new ContextOverflowError("CONTEXT_OVERFLOW", "x refused: prompt too long"),
    transient: false,
    invalid: "context_overflow",
  },
  {
    error: new ProviderProtocolError("PROVIDER_BAD_RESPONSE", "x sent no message"),
    transient: false,
    invalid: "server_error",
  },
  {
    error: new ProviderHttpError(503, "Ollama at x answered 503 after 3 tries"),
    status: 503,
    transient: true,
    invalid: "server_error",
  },
  {
    error: new ProviderHttpError(500, "Ollama at x answered 500"),
    status: 500,
    transient: false,
    invalid: "server_error",
  },
  { error: new ProviderHttpError(400, "Ollama at x answered 400: bad request"), status: 400, transient: false },
  {
    error: new ProviderHttpError(undefined, "Ollama at x: error mid-stream"),
    transient: false,
    invalid: "server_error",
  },
  {
    error: new PromptTooLongError("the prompt does not fit", callContext),
    transient: false,
    invalid: "context_overflow",
  },
];

describe("a failed call, recorded and replayed", () => {
  it.each(FAILURES.map((failure) => [`${failure.error.name} ${failure.status ?? ""}`, failure] as const))(
    "%s: the line says what failed; the replay throws the same class, code, message, status and invalid reason",
    async (_, { error, status, transient, invalid }) => {
      const live = new ScriptedModel({ planner: [{ error }] }, "ollama:m");
      await expect(
        new RecordingProvider(live, file, live.id, warn).complete({ stage: "planner", prompt: "p" }),
      ).rejects.toBe(error);
      const [line] = loadCassette(file, warn);
      expect(line!.error).toEqual({
        name: error.name,
        code: error.code,
        message: error.message,
        ...(status === undefined ? {} : { status }),
        transient,
        ...(invalid ? { invalid } : {}),
        ...(error instanceof PromptTooLongError ? { context: callContext } : {}),
      });
      expect(isTransient(error)).toBe(transient);
      expect(failureInvalid(error)).toBe(invalid);

      const again = await new ReplayProvider(file, "ollama:m", warn)
        .complete({ stage: "planner", prompt: "p" })
        .catch((caught: unknown) => caught);
      expect(again).toBeInstanceOf(error.constructor);
      expect(again).not.toBe(error);
      expect(again).toMatchObject({ name: error.name, code: error.code, message: error.message });
      expect(isTransient(again)).toBe(transient);
      expect(failureInvalid(again)).toBe(invalid);
      if (error instanceof ProviderHttpError) expect((again as ProviderHttpError).status).toBe(status);
      if (error instanceof PromptTooLongError) expect((again as PromptTooLongError).callContext).toEqual(callContext);
    },
  );

  it("replays a class it does not know, or one whose invalid reason would now differ, with the recorded reason", () => {
    const lines = [
      { name: "SomeFutureError", code: "FUTURE", message: "a new failure", transient: false, invalid: "server_error" },
      { name: "ModelTimeoutError", code: "MODEL_TIMEOUT", message: "slow", transient: false, invalid: "server_error" },
    ].map((error, index) => {
      const request = { provider: "ollama:m", kind: "complete", stage: "planner", prompt: `p${index}` } as const;
      return JSON.stringify({ v: 2, key: requestKey(request), request, error, session: 0 });
    });
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${lines.join("\n")}\n`);
    const replay = new ReplayProvider(file, "ollama:m", warn);
    return Promise.all(
      ["p0", "p1"].map(async (prompt, index) => {
        const again = await replay.complete({ stage: "planner", prompt }).catch((caught: unknown) => caught);
        expect(again).toBeInstanceOf(ReplayedModelError);
        expect(again).toMatchObject({ code: index === 0 ? "FUTURE" : "MODEL_TIMEOUT" });
        expect(failureInvalid(again)).toBe("server_error");
      }),
    );
  });

  it("still replays a format 1 cassette: its answers, its failures with the recorded reason, a resume's answer first", async () => {
    const request = { provider: "ollama:m", kind: "complete", stage: "planner", prompt: "p" } as const;
    const other = { ...request, prompt: "q" };
    const answer = (text: string) => ({
      text,
      usage: { promptTokens: 3, completionTokens: 2 },
      timings: { totalMs: 7 },
    });
    const v1 = [
      { v: 1, key: requestKey(other), request: other, response: answer("#E1 = get_me()") },
      {
        v: 1,
        key: requestKey(request),
        request,
        error: {
          name: "ProviderHttpError",
          code: "PROVIDER_HTTP_ERROR",
          message: "answered 500",
          invalid: "server_error",
        },
      },
      { v: 1, key: requestKey(request), request, response: answer("#E1 = list_issues()") },
      {
        v: 1,
        key: requestKey(other),
        request: other,
        error: { name: "ModelTimeoutError", code: "MODEL_TIMEOUT", message: "no answer within 10 ms" },
      },
    ];
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, v1.map((line) => `${JSON.stringify(line)}\n`).join(""));
    const replay = new ReplayProvider(file, "ollama:m", warn);
    expect(await replay.complete({ stage: "planner", prompt: "q" })).toEqual(answer("#E1 = get_me()"));
    const timeout = await replay.complete({ stage: "planner", prompt: "q" }).catch((caught: unknown) => caught);
    expect(timeout).toBeInstanceOf(ReplayedModelError);
    expect(timeout).toMatchObject({ code: "MODEL_TIMEOUT", message: "no answer within 10 ms" });
    expect(failureInvalid(timeout)).toBeUndefined();
    // format 1 kept no sessions: the later answer is taken to be a resume's, as when it was written
    expect((await replay.complete({ stage: "planner", prompt: "p" })).text).toBe("#E1 = list_issues()");
    const failure = await replay.complete({ stage: "planner", prompt: "p" }).catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(ReplayedModelError);
    expect(failureInvalid(failure)).toBe("server_error");
    expect(replay.remaining()).toBe(0);
    expect(warnings).toEqual([]);
  });
});

describe("the request key", () => {
  it("ignores key order, signals, time limits and stream callbacks, but not content", () => {
    const a = cassetteRequest("ollama:m", "chat", chatRequest);
    const reordered = cassetteRequest("ollama:m", "chat", {
      options: { temperature: 0 },
      tools: chatRequest.tools,
      messages: [{ content: "who am I", role: "user" }],
      stage: "native",
      signal: new AbortController().signal,
      timeoutMs: 5,
      onText: () => {},
    });
    expect(requestKey(reordered)).toBe(requestKey(a));
    expect(canonicalJson(reordered)).not.toMatch(/signal|timeoutMs|onText/);
    const changed = cassetteRequest("ollama:m", "chat", { ...chatRequest, options: { temperature: 0.1 } });
    expect(requestKey(changed)).not.toBe(requestKey(a));
    expect(requestKey(a)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("cassette files", () => {
  it("ignores a torn last line with a warning, and the next recording cuts it before appending", async () => {
    const recorder = new RecordingProvider(new ScriptedModel({ solver: ["one", "two"] }, "m"), file, "m", warn);
    await recorder.complete({ stage: "solver", prompt: "a" });
    appendFileSync(file, '{"v":1,"key":"ab'); // a crash mid-write
    expect(loadCassette(file, warn)).toHaveLength(1);
    expect(warnings).toEqual([`${file}:2: ignored a torn last line (an interrupted write)`]);

    const next = new RecordingProvider(new ScriptedModel({ solver: ["two"] }, "m"), file, "m", warn);
    await next.complete({ stage: "solver", prompt: "b" });
    expect(warnings[1]).toMatch(/dropped a torn last line \(16 bytes\)/);
    expect(readFileSync(file, "utf8").split("\n").filter(Boolean)).toHaveLength(2);
    expect(loadCassette(file, warn)).toHaveLength(2);
  });

  it("rejects a bad line that is not the last with file:line", () => {
    const corrupt = join(dir, "corrupt.jsonl");
    writeFileSync(corrupt, 'not json\n{"v":1}\n');
    expect(() => loadCassette(corrupt, warn)).toThrow(CassetteFormatError);
    expect(() => loadCassette(corrupt, warn)).toThrow(/corrupt\.jsonl:1: not a cassette record/);
    const invalid = join(dir, "invalid.jsonl");
    writeFileSync(invalid, '{"v":1,"key":"k","request":{"provider":"m","kind":"complete","stage":"solver"}}\n');
    expect(() => loadCassette(invalid, warn)).toThrow(/invalid\.jsonl:1: .*exactly one of `response` and `error`/);
  });

  it("records onto a cassette that holds calls only when asked to append", async () => {
    // no file yet, or an empty one: nothing to mix into
    expect(() => checkRecordTarget(file, false)).not.toThrow();
    const recorder = new RecordingProvider(new ScriptedModel({ solver: ["one", "two"] }, "m"), file, "m", warn);
    await recorder.complete({ stage: "solver", prompt: "a" });
    await recorder.complete({ stage: "solver", prompt: "b" });
    expect(() => checkRecordTarget(file, false)).toThrow(CassetteExistsError);
    expect(() => checkRecordTarget(file, false)).toThrow(
      `--record ${file}: the cassette already holds 2 recorded calls; add --append to record onto it, or give a new file`,
    );
    expect(() => checkRecordTarget(file, true)).not.toThrow();
    const empty = join(dir, "empty.jsonl");
    writeFileSync(empty, "");
    expect(() => checkRecordTarget(empty, false)).not.toThrow();
  });

  it("keeps only the request fields that decide the answer: no signal, no time limit", async () => {
    const recorder = new RecordingProvider(new ScriptedModel({ native: ["hi"] }, "openai:m"), file, "openai:m", warn);
    await recorder.chat({ ...chatRequest, signal: new AbortController().signal, timeoutMs: 1234 });
    const [record] = loadCassette(file, warn);
    expect(Object.keys(record!.request).sort()).toEqual(["kind", "messages", "options", "provider", "stage", "tools"]);
    expect(readFileSync(file, "utf8")).not.toMatch(/1234|signal/);
  });
});
