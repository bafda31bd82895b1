/** `pnpm standin` as a user runs it: a child process serving the simulator on 127.0.0.1. */

import { type ChildProcessWithoutNullStreams, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { OllamaProvider } from "../../src/models/ollama.ts";

const root = new URL("../..", import.meta.url).pathname;
const bin = ["--import", "tsx", "src/cli/bin.ts", "standin"];
const dir = mkdtempSync(join(tmpdir(), "standin-cli-"));
let child: ChildProcessWithoutNullStreams | undefined;

afterEach(() => {
  child?.kill("SIGINT");
  child = undefined;
});

/** Starts the stand-in on a free port; resolves with its URL and first output once it listens. */
function start(args: readonly string[]): Promise<{ url: string; output: string }> {
  const started = spawn(process.execPath, [...bin, "--port", "0", ...args], { cwd: root });
  child = started;
  let output = "";
  started.stdout.setEncoding("utf8");
  return new Promise((resolve, reject) => {
    started.stdout.on("data", (chunk: string) => {
      output += chunk;
      const found = /stand-in Ollama at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (found) resolve({ url: found[1] as string, output });
    });
    started.once("exit", (code) => reject(new Error(`standin exited (${code}) before listening: ${output}`)));
  });
}

/** The CLI run to its end: exit code and error output. */
function failure(args: readonly string[]): Promise<{ code: number; stderr: string }> {
  return promisify(execFile)(process.execPath, [...bin, ...args], { cwd: root }).then(
    () => ({ code: 0, stderr: "" }),
    (error: { code: number; stderr: string }) => error,
  );
}

async function generate(url: string, body: Record<string, unknown>) {
  const response = await fetch(`${url}/api/generate`, {
    method: "POST",
    body: JSON.stringify({ ...body, stream: false }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("onsetlab standin", () => {
  it("serves every model name from the chosen profile until interrupted", async () => {
    const { url, output } = await start(["--profile", "sim:oracle"]);
    expect(output).toMatch(/every model is sim:oracle — simulated, \d+ gold items/);
    const answer = await new OllamaProvider({ model: "any-name:3b", host: url }).chat({
      stage: "native",
      messages: [{ role: "user", content: "What open issues do we have in acme/webapp?" }],
      tools: [{ name: "list_issues", description: "List issues", parameters: { type: "object", properties: {} } }],
    });
    expect(answer.toolCalls[0]).toMatchObject({ name: "list_issues", arguments: { owner: "acme", repo: "webapp" } });
    const running = child as ChildProcessWithoutNullStreams;
    running.kill("SIGINT");
    const [code] = await once(running, "exit");
    expect(code).toBe(0);
  });

  it("--real with --models and --num-ctx: only the listed models, prompts cut at the given window", async () => {
    const models = join(dir, "models.json");
    writeFileSync(models, JSON.stringify(["tiny:1b", { name: "big:8b", contextLength: 256, tools: false }]));
    const { url } = await start([
      "--real",
      "--models",
      models,
      "--num-ctx",
      "512",
      "--dataset",
      "datasets/github.jsonl",
    ]);
    const version = await (await fetch(`${url}/api/version`)).json();
    expect(version).toEqual({ version: expect.any(String), standin: { profile: "sim:slm-3b", real: true } });
    const tags = (await (await fetch(`${url}/api/tags`)).json()) as { models: { name: string }[] };
    expect(tags.models.map((model) => model.name)).toEqual(["tiny:1b", "big:8b"]);
    const long = "word ".repeat(1000);
    expect((await generate(url, { model: "tiny:1b", prompt: long })).body.prompt_eval_count).toBe(512);
    // The model's trained length caps the window.
    expect((await generate(url, { model: "big:8b", prompt: long })).body.prompt_eval_count).toBe(256);
    expect((await generate(url, { model: "qwen2.5:3b", prompt: "x" })).status).toBe(404);
  });

  it("a behaviour flag wins over the mode: --real --no-truncate leaves long prompts whole", async () => {
    const { url } = await start(["--real", "--no-truncate", "--dataset", "datasets/github.jsonl"]);
    const answer = await generate(url, { model: "qwen2.5:3b", prompt: "word ".repeat(20_000) });
    expect(answer.body.prompt_eval_count).toBeGreaterThan(4096);
  });

  it("--tokenizer llamacpp serves llama.cpp's endpoints and says so; without it /tokenize is Ollama's 404", async () => {
    const { url, output } = await start(["--real", "--tokenizer", "llamacpp", "--dataset", "datasets/github.jsonl"]);
    expect(output).toContain(`llama.cpp's tokenizer endpoints at ${url}/tokenize and /apply-template`);
    const post = (path: string, body: object) =>
      fetch(`${url}${path}`, { method: "POST", body: JSON.stringify(body) }).then((response) => response.json());
    const { prompt } = (await post("/apply-template", { messages: [{ role: "user", content: "hi there" }] })) as {
      prompt: string;
    };
    expect(prompt).toBe("user: hi there");
    expect(await post("/tokenize", { content: prompt, with_pieces: true })).toEqual({
      tokens: ["user", ": hi", " the", "re"].map((piece) => ({ id: expect.any(Number), piece })),
    });
    child?.kill("SIGINT");
    const plain = await start(["--real", "--dataset", "datasets/github.jsonl"]);
    expect((await fetch(`${plain.url}/tokenize`, { method: "POST", body: "{}" })).status).toBe(404);
  });

  it.each([
    [["--pace", "fast"], /--pace must be a number of tokens per second > 0, not "fast"/],
    [["--prompt-rate", "0"], /--prompt-rate must be a number of tokens per second > 0, not "0"/],
    [["--time-scale", "-1"], /--time-scale must be a factor > 0, not "-1"/],
    [["--slots", "0"], /--slots must be a whole number ≥ 1, not "0"/],
    [["--num-ctx", "big"], /--num-ctx must be a whole number ≥ 1, not "big"/],
    [["--max-queue", "-1"], /--max-queue must be a whole number ≥ 0, not "-1"/],
    [["--models", "no-such-file.json"], /--models no-such-file\.json: cannot read a JSON list/],
    [["--tokenizer", "ollama"], /--tokenizer must be one of none, vllm, llamacpp, not "ollama"/],
  ])("rejects %j with exit code 2 and one line naming it", async (args, message) => {
    expect(await failure(args)).toMatchObject({ code: 2, stderr: expect.stringMatching(message) });
  });

  it("names the bad entry of a --models file", async () => {
    const models = join(dir, "bad-models.json");
    writeFileSync(models, JSON.stringify([{ name: "x", contextLength: "lots" }]));
    expect(await failure(["--models", models])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--models .*bad-models\.json: entry 0\.contextLength: .*expected number/),
    });
  });
});
