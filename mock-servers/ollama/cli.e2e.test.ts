/** `pnpm standin` as a user starts it: the flags reach the server, bad ones stop it with one line. */

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, REPO_ROOT, runCli } from "../../test/support/bench-run.ts";

const dir = mkdtempSync(join(tmpdir(), "standin-cli-"));
let child: ChildProcess | undefined;

afterEach(() => {
  child?.kill();
  child = undefined;
});

/** Starts the stand-in and resolves with its URL once it prints it. */
function start(args: readonly string[]): Promise<string> {
  const started = spawn(process.execPath, [...CLI, "standin", "--port", "0", ...args], { cwd: REPO_ROOT });
  child = started;
  return new Promise((resolve, reject) => {
    let out = "";
    started.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(out)?.[0];
      if (url) resolve(url);
    });
    started.on("exit", (code) => reject(new Error(`standin exited with ${code} before printing its URL: ${out}`)));
  });
}

async function generate(url: string, body: Record<string, unknown>) {
  const response = await fetch(`${url}/api/generate`, {
    method: "POST",
    body: JSON.stringify({ ...body, stream: false }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("pnpm standin", () => {
  it("--real with --models and --num-ctx: only the listed models, prompts cut at the given window", async () => {
    const models = join(dir, "models.json");
    writeFileSync(models, JSON.stringify(["tiny:1b", { name: "big:8b", contextLength: 256, tools: false }]));
    const url = await start(["--real", "--models", models, "--num-ctx", "512", "--dataset", "datasets/github.jsonl"]);
    const version = await (await fetch(`${url}/api/version`)).json();
    expect(version).toEqual({ version: "0.12.10", standin: { profile: "sim:slm-3b", real: true } });
    const tags = (await (await fetch(`${url}/api/tags`)).json()) as { models: { name: string }[] };
    expect(tags.models.map((model) => model.name)).toEqual(["tiny:1b", "big:8b"]);
    const long = "word ".repeat(1000);
    expect((await generate(url, { model: "tiny:1b", prompt: long })).body.prompt_eval_count).toBe(512);
    // The model's trained length caps the window.
    expect((await generate(url, { model: "big:8b", prompt: long })).body.prompt_eval_count).toBe(256);
    expect((await generate(url, { model: "qwen2.5:3b", prompt: "x" })).status).toBe(404);
  });

  it("a behaviour flag wins over the mode: --real --no-truncate leaves long prompts whole", async () => {
    const url = await start(["--real", "--no-truncate", "--dataset", "datasets/github.jsonl"]);
    const answer = await generate(url, { model: "qwen2.5:3b", prompt: "word ".repeat(20_000) });
    expect(answer.body.prompt_eval_count).toBeGreaterThan(4096);
  });

  it.each([
    [["--num-ctx", "big"], /--num-ctx must be a whole number ≥ 1, not "big"/],
    [["--max-queue", "-1"], /--max-queue must be a whole number ≥ 0, not "-1"/],
    [["--models", "no-such-file.json"], /--models no-such-file\.json: cannot read a JSON list/],
  ])("refuses %j with one line and exit 2", async (args, message) => {
    const outcome = await runCli(["standin", "--port", "0", ...args]);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(message);
  });

  it("names the bad entry of a --models file", async () => {
    const models = join(dir, "bad-models.json");
    writeFileSync(models, JSON.stringify([{ name: "x", contextLength: "lots" }]));
    const outcome = await runCli(["standin", "--port", "0", "--models", models]);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(/--models .*bad-models\.json: entry 0\.contextLength: .*expected number/);
  });
});
