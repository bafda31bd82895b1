/**
 * The stand-in behind a proxy that drops the `x-onsetlab-stage` header: it must read every stage from
 * the request itself, so the pipeline through it — both APIs, every strategy's prompts — gives exactly
 * the simulator's outcomes. A model playing a conversation's user (the user stage) answers as the user there too.
 */

import { createServer, request as forward, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Standin, startStandin } from "../../../../mock-servers/ollama/server.ts";
import type { Strategy } from "../../../../src/agent/types.ts";
import { modelUser, type UserReplyInput } from "../../../../src/bench/conversation/model-user.ts";
import { CLARIFY_CONVERSATION } from "../../../../src/bench/conversation/testing/clarify.ts";
import { loadDataset } from "../../../../src/bench/dataset/load.ts";
import type { ClientPool } from "../../../../src/mcp/pool.ts";
import { STAGE_HEADER } from "../../../../src/models/http.ts";
import { OllamaProvider } from "../../../../src/models/ollama.ts";
import { OpenAIProvider } from "../../../../src/models/openai.ts";
import { createSimProvider } from "../../../../src/models/sim/index.ts";
import type { ModelProvider } from "../../../../src/models/types.ts";
import { openGithubPool, outcome, runPipeline } from "../../../support/pipeline-runs.ts";

const gold = loadDataset().map((loaded) => loaded.item);
/** Every fifth github item. */
const items = loadDataset("datasets/github.jsonl")
  .map((loaded) => loaded.item)
  .filter((_, index) => index % 5 === 0);
const strategies: Strategy[] = ["auto", "react", "jsonl", "native"];
const sim = () => createSimProvider({ profile: "slm-3b", gold, seed: 11 });

let pool: ClientPool;
let standin: Standin;
let proxy: Server;
let proxyUrl: string;
const stagesSeen: (string | undefined)[] = [];

/** Forwards everything to the stand-in, without the stage header. */
function headerlessProxy(target: URL): Server {
  return createServer((incoming, outgoing) => {
    stagesSeen.push(incoming.headers[STAGE_HEADER] as string | undefined);
    const headers = { ...incoming.headers };
    delete headers[STAGE_HEADER];
    const upstream = forward(
      { host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    incoming.pipe(upstream);
  });
}

beforeAll(async () => {
  pool = await openGithubPool();
  standin = await startStandin({ provider: sim(), port: 0 });
  proxy = headerlessProxy(new URL(standin.url));
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await pool?.close();
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  await standin?.close();
});

async function runAll(model: ModelProvider) {
  return (await runPipeline(pool, model, items, strategies)).map(outcome);
}

describe(`without the stage header, ${items.length} github items × ${strategies.join(", ")}`, () => {
  let direct: ReturnType<typeof outcome>[];

  beforeAll(async () => {
    direct = await runAll(sim());
  });

  it("ollama → proxy → stand-in gives exactly the simulator's outcomes", async () => {
    stagesSeen.length = 0;
    const viaOllama = await runAll(new OllamaProvider({ model: "qwen2.5:3b", host: proxyUrl }));
    expect(new Set(stagesSeen)).toEqual(
      new Set(["router", "select", "planner", "solver", "react", "fallback", "jsonl", "native"]),
    );
    expect(viaOllama).toEqual(direct);
  });

  it("openai → proxy → stand-in gives exactly the simulator's outcomes", async () => {
    const viaOpenAI = await runAll(new OpenAIProvider({ model: "qwen2.5:3b", baseUrl: `${proxyUrl}/v1` }));
    expect(viaOpenAI).toEqual(direct);
  });
});

describe("without the stage header, a model playing the user", () => {
  const questions: UserReplyInput[] = ["Which repository?", "Which repo do you mean?", "Owner and repo?"].flatMap(
    (question) => [0, 1].map((index) => ({ conversation: CLARIFY_CONVERSATION, index, question })),
  );
  const replies = (model: ModelProvider) =>
    Promise.all(questions.map((input) => modelUser("user", model).reply(input)));

  it("gets the simulator's own replies through either API: the script's answer, the go-ahead or a drawn mistake", async () => {
    const direct = await replies(sim());
    expect(direct).toContain("acme/api");
    expect(direct).toContain("Please go ahead with what you have.");
    stagesSeen.length = 0;
    expect(await replies(new OllamaProvider({ model: "qwen2.5:3b", host: proxyUrl }))).toEqual(direct);
    expect(stagesSeen).toContain("user"); // the provider's header, which the proxy dropped
    expect(await replies(new OpenAIProvider({ model: "qwen2.5:3b", baseUrl: `${proxyUrl}/v1` }))).toEqual(direct);
  });
});
