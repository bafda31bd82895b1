/**
 * `pnpm agent` (and POST /run) against the stand-in (the simulator behind Ollama's API) says its answers
 * are simulated, as the bench's table and run.json do: the model line names the stand-in and the model
 * calls' times are labelled simulated. A real model's name must not pass the simulator's numbers off.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Standin, startStandin } from "../../mock-servers/ollama/server.ts";
import { loadDataset } from "../../src/bench/dataset/load.ts";
import { runAgentQuery } from "../../src/bench/run/agent-query.ts";
import { createSimProvider } from "../../src/models/sim/index.ts";
import { agentRoutes } from "../../src/serve/agent-routes.ts";
import { benchQueryRunner } from "../../src/serve/query-runner.ts";
import { runInProcess } from "../support/cli-in-process.ts";

let standin: Standin;
const previous = process.env.OLLAMA_HOST;

beforeAll(async () => {
  const gold = loadDataset().map((loaded) => loaded.item);
  standin = await startStandin({ provider: createSimProvider({ profile: "oracle", gold, seed: 1 }), port: 0 });
  process.env.OLLAMA_HOST = standin.url;
});
afterAll(async () => {
  if (previous === undefined) delete process.env.OLLAMA_HOST;
  else process.env.OLLAMA_HOST = previous;
  await standin?.close();
});

describe("agent through the stand-in", () => {
  it("labels the model simulated (stand-in), and its calls' times simulated", async () => {
    const outcome = await runInProcess(["agent", "--model", "qwen2.5:3b", "--item", "gh-s001", "--no-cache"]);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toMatch(/^model {7}qwen2\.5:3b \(simulated \(stand-in\): the server is the stand-in/m);
    expect(outcome.stdout).toMatch(/#1 planner complete .*\(simulated /);
  });

  it("POST /run labels its answer simulated (stand-in)", async () => {
    const response = await agentRoutes(benchQueryRunner()).request("/run", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "qwen2.5:3b", itemId: "gh-s001" }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { label: string }).label).toBe("simulated (stand-in)");
  });

  it("runAgentQuery says so; the simulator itself is not called a stand-in", async () => {
    const query = { itemId: "gh-s001", configName: "onsetlab", seed: 1, transport: "memory" } as const;
    expect((await runAgentQuery({ ...query, model: "qwen2.5:3b" })).standin).toBe(true);
    expect((await runAgentQuery({ ...query, model: "sim:oracle" })).standin).toBeUndefined();
  });

  it("answers onsetlab-plus's selector call over HTTP: the oracle names the item's tool, shown first", async () => {
    const query = { itemId: "gh-s001", configName: "onsetlab-plus", seed: 1, transport: "memory" } as const;
    const { result } = await runAgentQuery({ ...query, model: "qwen2.5:3b" });
    expect(result.modelCalls.map((call) => call.stage)).toContain("select");
    expect(result.tools.selected).toEqual(["list_issues"]);
    expect(result.tools.filtered[0]).toBe("list_issues");
  });
});
