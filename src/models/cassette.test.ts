import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
  failureInvalid,
  ModelAbortedError,
  ModelTimeoutError,
  ProviderHttpError,
  ReplayedModelError,
} from "./errors.ts";
import { ScriptedModel } from "./scripted.ts";
import type { ChatRequest } from "./types.ts";

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

  it("records a model failure and replays it with the same code and message; a caller's abort is not recorded", async () => {
    const timeout = new ModelTimeoutError("MODEL_TIMEOUT", "no answer from Ollama at x within 10 ms");
    const aborted = new ModelAbortedError("MODEL_ABORTED", "aborted by the caller");
    const live = new ScriptedModel({ planner: [{ error: timeout }, { error: aborted }] }, "ollama:m");
    const recorder = new RecordingProvider(live, file, live.id, warn);
    await expect(recorder.complete({ stage: "planner", prompt: "p" })).rejects.toBe(timeout);
    await expect(recorder.complete({ stage: "planner", prompt: "q" })).rejects.toBe(aborted);
    expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(1);

    const failure = await new ReplayProvider(file, "ollama:m", warn)
      .complete({ stage: "planner", prompt: "p" })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ReplayedModelError);
    expect(failure).toMatchObject({ code: "MODEL_TIMEOUT", message: timeout.message });
    // the model's own failure stays the model's: the item is scored, not invalid
    expect(failureInvalid(failure)).toBeUndefined();
  });

  it("replays a server failure as one that makes its item invalid, as it did when recorded", async () => {
    const unavailable = new ProviderHttpError(503, "Ollama at x answered 503 after 3 tries");
    const live = new ScriptedModel({ planner: [{ error: unavailable }] }, "ollama:m");
    await expect(
      new RecordingProvider(live, file, live.id, warn).complete({ stage: "planner", prompt: "p" }),
    ).rejects.toBe(unavailable);
    const failure = await new ReplayProvider(file, "ollama:m", warn)
      .complete({ stage: "planner", prompt: "p" })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ReplayedModelError);
    expect(failureInvalid(failure)).toBe("server_error");
  });

  it("replays the answer a resume got before the server failure it replaced; the failure stays for a further ask", async () => {
    const unavailable = new ProviderHttpError(500, "Ollama at x answered 500");
    // the run, then its resume (which ran the failed request again), append to the same cassette
    const live = new ScriptedModel({ planner: [{ error: unavailable }, "#E1 = get_me()"] }, "ollama:m");
    const recorder = new RecordingProvider(live, file, live.id, warn);
    await expect(recorder.complete({ stage: "planner", prompt: "p" })).rejects.toBe(unavailable);
    await recorder.complete({ stage: "planner", prompt: "p" });

    const replay = new ReplayProvider(file, "ollama:m", warn);
    expect((await replay.complete({ stage: "planner", prompt: "p" })).text).toBe("#E1 = get_me()");
    const again = await replay.complete({ stage: "planner", prompt: "p" }).catch((error: unknown) => error);
    expect(failureInvalid(again)).toBe("server_error");
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
