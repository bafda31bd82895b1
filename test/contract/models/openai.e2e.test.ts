/** The `openai` provider against the stand-in, and against a tiny llama.cpp-like server for the details. */

import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Standin, startStandin } from "../../../mock-servers/ollama/server.ts";
import { RecordingProvider } from "../../../src/models/cassette.ts";
import {
  MissingApiKeyError,
  ModelNotFoundError,
  ModelTimeoutError,
  ProviderHttpError,
} from "../../../src/models/errors.ts";
import { OpenAIProvider } from "../../../src/models/openai.ts";
import type { ChatTool } from "../../../src/models/types.ts";
import { EchoModel } from "../../support/echo-model.ts";

const tools: ChatTool[] = [
  { name: "list_issues", description: "issues", parameters: { type: "object", properties: {} } },
];

/** Answers like llama.cpp server: usage plus `timings`, arguments exactly as given; remembers the headers. */
function llamaCppLike(argumentsString: string, status = 200) {
  const seen: IncomingHttpHeaders[] = [];
  const server: Server = createServer((request, response) => {
    seen.push(request.headers);
    request.resume();
    request.on("end", () => {
      const body =
        status === 200
          ? {
              choices: [
                {
                  index: 0,
                  finish_reason: "tool_calls",
                  message: {
                    role: "assistant",
                    content: null,
                    tool_calls: [
                      { id: "c1", type: "function", function: { name: "list_issues", arguments: argumentsString } },
                    ],
                  },
                },
              ],
              usage: { prompt_tokens: 52, completion_tokens: 11, total_tokens: 63 },
              timings: { prompt_n: 52, prompt_ms: 31.5, predicted_n: 11, predicted_ms: 140.25 },
            }
          : { error: { code: status, message: "Invalid API Key", type: "authentication_error" } };
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    });
  });
  return { server, seen };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

let standin: Standin;
let restricted: Standin;

beforeAll(async () => {
  standin = await startStandin({ provider: new EchoModel(), port: 0 });
  restricted = await startStandin({ provider: new EchoModel(), port: 0, models: [{ name: "qwen2.5:3b" }], pace: 2 });
});

afterAll(async () => {
  await Promise.all([standin.close(), restricted.close()]);
});

describe("OpenAIProvider against a llama.cpp-like server", () => {
  it("sends the key from the named variable, reads llama.cpp timings, reports a bad arguments string — and never records the key", async () => {
    const { server, seen } = llamaCppLike('{"owner": "acme", repo: webapp}');
    const baseUrl = await listen(server);
    process.env.TEST_LLAMA_KEY = "sk-test-secret-123";
    try {
      const file = join(mkdtempSync(join(tmpdir(), "openai-")), "run.jsonl");
      const live = new OpenAIProvider({ model: "qwen", baseUrl, apiKeyEnv: "TEST_LLAMA_KEY" });
      const provider = new RecordingProvider(live, file);
      const response = await provider.chat({
        stage: "native",
        messages: [{ role: "user", content: "issues?" }],
        tools,
      });
      expect(seen[0]?.authorization).toBe("Bearer sk-test-secret-123");
      expect(response.usage).toEqual({ promptTokens: 52, completionTokens: 11 });
      expect(response.timings).toMatchObject({ promptEvalMs: 31.5, evalMs: 140.25 });
      expect(response.toolCalls).toEqual([
        {
          id: "c1",
          name: "list_issues",
          arguments: {},
          rawArguments: '{"owner": "acme", repo: webapp}',
          argumentsError: expect.stringMatching(/^arguments are not valid JSON/),
        },
      ]);
      expect(readFileSync(file, "utf8")).not.toContain("sk-test-secret-123");
    } finally {
      delete process.env.TEST_LLAMA_KEY;
      server.close();
    }
  });

  it("fails with MissingApiKeyError when the named variable is not set, before sending anything", async () => {
    const { server, seen } = llamaCppLike("{}");
    const baseUrl = await listen(server);
    try {
      const provider = new OpenAIProvider({ model: "qwen", baseUrl, apiKeyEnv: "TEST_UNSET_KEY_VAR" });
      await expect(provider.chat({ stage: "native", messages: [{ role: "user", content: "x" }] })).rejects.toThrow(
        MissingApiKeyError,
      );
      expect(seen).toEqual([]);
    } finally {
      server.close();
    }
  });

  it("reports an authentication failure with its status and where the key comes from", async () => {
    const { server } = llamaCppLike("{}", 401);
    const baseUrl = await listen(server);
    process.env.TEST_LLAMA_KEY = "wrong";
    try {
      const provider = new OpenAIProvider({ model: "qwen", baseUrl, apiKeyEnv: "TEST_LLAMA_KEY" });
      const failure = await provider.complete({ stage: "planner", prompt: "x" }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ProviderHttpError);
      expect((failure as Error).message).toBe(
        `${baseUrl}/completions answered 401: Invalid API Key (check the key in TEST_LLAMA_KEY)`,
      );
    } finally {
      delete process.env.TEST_LLAMA_KEY;
      server.close();
    }
  });
});

describe("OpenAIProvider against the stand-in", () => {
  it("joins a streamed answer's tool-call fragments and text pieces", async () => {
    const provider = new OpenAIProvider({ model: "qwen2.5:3b", baseUrl: `${standin.url}/v1` });
    const pieces: string[] = [];
    const response = await provider.chat({
      stage: "native",
      messages: [{ role: "user", content: 'call list_issues with {"owner":"acme","repo":"webapp"}' }],
      tools,
      onText: (piece) => pieces.push(piece),
    });
    expect(response.toolCalls).toEqual([
      { id: expect.stringMatching(/^call_/), name: "list_issues", arguments: { owner: "acme", repo: "webapp" } },
    ]);
    expect(response.usage.promptTokens).toBeGreaterThan(0);
    const text = await provider.complete({ stage: "solver", prompt: "a b c", onText: (piece) => pieces.push(piece) });
    expect(pieces.join("")).toBe("echo: a b c");
    expect(text.text).toBe("echo: a b c");
  });

  it("names the model and where to fix it when the server does not serve it", async () => {
    const provider = new OpenAIProvider({
      model: "nope:1b",
      baseUrl: `${restricted.url}/v1`,
      source: "models.yaml: models.x",
    });
    const failure = await provider.complete({ stage: "planner", prompt: "x" }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelNotFoundError);
    expect((failure as Error).message).toMatch(
      /does not serve model "nope:1b" .*check `model:` in models\.yaml: models\.x/,
    );
  });

  it("times out", async () => {
    const provider = new OpenAIProvider({ model: "qwen2.5:3b", baseUrl: `${restricted.url}/v1`, timeoutMs: 100 });
    await expect(provider.complete({ stage: "solver", prompt: "slow" })).rejects.toThrow(ModelTimeoutError);
  });
});
