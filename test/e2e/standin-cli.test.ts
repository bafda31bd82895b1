/** `pnpm standin` as a user runs it: a child process serving the simulator on 127.0.0.1. */

import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { OllamaProvider } from "../../src/models/ollama.ts";

const root = new URL("../..", import.meta.url).pathname;
const bin = ["--import", "tsx", "src/cli/bin.ts", "standin"];

describe("onsetlab standin", () => {
  it("serves every model name from the chosen profile until interrupted", async () => {
    const child = spawn(process.execPath, [...bin, "--port", "0", "--profile", "sim:oracle"], { cwd: root });
    try {
      let output = "";
      child.stdout.setEncoding("utf8");
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (chunk: string) => {
          output += chunk;
          const found = /stand-in Ollama at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (found) resolve(found[1]!);
        });
        child.once("exit", (code) => reject(new Error(`standin exited (${code}) before listening: ${output}`)));
      });
      expect(output).toMatch(/every model is sim:oracle — simulated, \d+ gold items/);
      const answer = await new OllamaProvider({ model: "any-name:3b", host: url }).chat({
        stage: "native",
        messages: [{ role: "user", content: "What open issues do we have in acme/webapp?" }],
        tools: [{ name: "list_issues", description: "List issues", parameters: { type: "object", properties: {} } }],
      });
      expect(answer.toolCalls[0]).toMatchObject({ name: "list_issues", arguments: { owner: "acme", repo: "webapp" } });
    } finally {
      child.kill("SIGINT");
    }
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
  });

  it("rejects a bad flag with exit code 2 and one line naming it", async () => {
    const failure = await promisify(execFile)(process.execPath, [...bin, "--pace", "fast"], { cwd: root }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--pace must be a number of tokens per second > 0, not "fast"/),
    });
  });
});
