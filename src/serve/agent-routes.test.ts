import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../agent/events.ts";
import { agentRoutes, type RunQueryResponse } from "./agent-routes.ts";
import { benchQueryRunner } from "./query-runner.ts";

const app = agentRoutes(benchQueryRunner());

function post(body: unknown, accept = "application/json"): Promise<Response> {
  return Promise.resolve(
    app.request("/run", {
      method: "POST",
      headers: { "content-type": "application/json", accept },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

/** `event:` / `data:` pairs of an SSE body. */
function sseEvents(text: string): { event: string; data: unknown }[] {
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
      const data = block
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => line.slice(6))
        .join("\n");
      return { event, data: JSON.parse(data) };
    });
}

describe("agent routes", { timeout: 30_000 }, () => {
  it("answers /health", async () => {
    const response = await app.request("/health");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", version: "0.1.0" });
  });

  it("runs a dataset query and scores it", async () => {
    const response = await post({ itemId: "gh-s001", model: "sim:oracle", config: "onsetlab-plus" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as RunQueryResponse;
    expect(body.item).toEqual({ id: "gh-s001", category: expect.any(String) });
    expect(body.score?.taskSuccess).toBe(true);
    expect(body.answer).toBe(body.result.answer);
    expect(body.result.modelCalls.length).toBeGreaterThan(0);
  });

  it("offers close dataset queries when the simulator gets a free query", async () => {
    const response = await post({ query: "list the open issues of some repository", model: "sim:oracle" });
    const body = (await response.json()) as RunQueryResponse;
    expect(body.score).toBeUndefined();
    expect(body.closeItems?.length).toBeGreaterThan(0);
  });

  it("streams the stages, then the response", async () => {
    const response = await post(
      { itemId: "gh-s001", model: "sim:oracle", config: "onsetlab-plus" },
      "text/event-stream",
    );
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const events = sseEvents(await response.text());
    const stages = events.filter((e) => e.event === "stage").map((e) => (e.data as AgentEvent).type);
    expect(stages).toContain("model_call_start");
    expect(stages).toContain("model_call_end");
    expect(stages).toContain("tool_call");
    expect(stages).toContain("tool_result");
    expect(stages.at(-1)).toBe("answer");
    const done = events.at(-1)!;
    expect(done.event).toBe("done");
    expect((done.data as RunQueryResponse).score?.taskSuccess).toBe(true);
    const start = events.find((e) => (e.data as AgentEvent).type === "model_call_start")!.data as {
      prompt?: string;
    };
    expect(start.prompt?.length).toBeGreaterThan(0);
  });

  it.each([
    [{ model: "sim:oracle" }, "query"],
    [{ query: "hi" }, "model"],
    [{ query: "hi", model: "sim:oracle", config: "no-such-config" }, "config"],
    [{ query: "hi", model: "no-such-model" }, "model"],
    [{ model: "sim:oracle", itemId: "zz-999" }, "itemId"],
    [{ query: 3, model: "sim:oracle" }, "query"],
    [{ query: "hi", model: "sim:oracle", extra: 1 }, "extra"],
  ])("refuses %j naming %s", async (body, field) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    const error = ((await response.json()) as { error: { field?: string; code: string } }).error;
    expect(error.field).toBe(field);
  });

  it("refuses a body that is not JSON", async () => {
    const response = await post("{not json");
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("BAD_JSON");
  });
});
