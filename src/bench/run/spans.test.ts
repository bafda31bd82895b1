/**
 * The spans of a real agent run (scripted model, in-memory servers) as traces.jsonl lines: the
 * run → query → stage → call → attempt tree, written as each span ends — before recordQuery returns,
 * since a thread hands a finished task's lines on right after it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryToolHost } from "../../../mock-servers/kit/memory-host.ts";
import { chatSpec, hubSpec } from "../../../mock-servers/kit/sample-servers.ts";
import { runAgent } from "../../agent/agent.ts";
import type { AgentResult } from "../../agent/types.ts";
import { ScriptedModel } from "../../models/scripted.ts";
import type { SpanLine } from "../../trace/jsonl-exporter.ts";
import { startQueryTracer, startRunTracer } from "./spans.ts";

let host: MemoryToolHost;
let result: AgentResult;

beforeAll(async () => {
  host = await MemoryToolHost.open([hubSpec, chatSpec]);
  const listIssues = { name: "list_issues", arguments: { owner: "acme", repo: "webapp", state: "OPEN" } };
  const model = new ScriptedModel({
    native: [
      { toolCalls: [{ id: "call_1", ...listIssues }] },
      { toolCalls: [{ id: "call_2", name: "no_such_tool", arguments: {} }] },
      { text: "One open issue: Login fails." },
    ],
  });
  result = await runAgent("List the open issues in acme/webapp", {
    config: { strategy: "native" },
    model,
    tools: host,
  });
});
afterAll(async () => {
  await host.close();
});

describe("run and query spans", () => {
  it("writes each query's spans before recordQuery returns, children before their parents, under the run span", async () => {
    const runLines: SpanLine[] = [];
    const queryLines: SpanLine[] = [];
    const runTracer = startRunTracer("run-1", (line) => runLines.push(line));
    const queries = startQueryTracer("run-1", runTracer.parent, (line) => queryLines.push(line));
    const startedAt = 1_700_000_000_000;
    queries.recordQuery({
      key: "k1",
      model: "scripted",
      config: "native",
      itemId: "gh-1",
      category: "single",
      startedAt,
      result,
      taskSuccess: true,
    });
    const written = queryLines.length;
    expect(written).toBeGreaterThan(0);
    await queries.end();
    expect(queryLines).toHaveLength(written);
    await runTracer.end({ "onsetlab.tasks": 1 });

    expect(runLines).toHaveLength(1);
    const [run] = runLines;
    expect(run).toMatchObject({ name: "run", status: "unset", attributes: { "onsetlab.tasks": 1 } });
    expect(run!.parentSpanId).toBeUndefined();

    const byId = new Map(queryLines.map((line) => [line.spanId, line]));
    const query = queryLines.find((line) => line.name === "query")!;
    expect(query).toMatchObject({
      traceId: run!.traceId,
      parentSpanId: run!.spanId,
      startMs: startedAt,
      endMs: startedAt + result.timings.totalMs,
      attributes: { "onsetlab.key": "k1", "onsetlab.task_success": true, "gen_ai.request.model": "scripted" },
    });
    // written as they end: every span after all of its children, the query last
    expect(queryLines.at(-1)).toBe(query);
    for (const [index, line] of queryLines.entries()) {
      expect(line.traceId).toBe(run!.traceId);
      if (line !== query) expect(byId.has(line.parentSpanId!)).toBe(true);
      const parentIndex = queryLines.findIndex((other) => other.spanId === line.parentSpanId);
      if (parentIndex >= 0) expect(parentIndex).toBeGreaterThan(index);
    }

    const chats = queryLines.filter((line) => line.name === "chat scripted");
    expect(chats).toHaveLength(result.modelCalls.length);
    expect(chats[0]!.attributes).toMatchObject({ "gen_ai.operation.name": "chat", "gen_ai.request.model": "scripted" });
    const tools = queryLines.filter((line) => line.name.startsWith("execute_tool "));
    expect(tools.map((line) => line.attributes["gen_ai.tool.name"])).toEqual(result.toolCalls.map((call) => call.tool));
    for (const tool of tools) {
      const stage = byId.get(tool.parentSpanId!)!;
      expect(stage.attributes["onsetlab.stage"]).toBe(stage.name);
      expect(stage.parentSpanId).toBe(query.spanId);
      expect(stage.startMs).toBeLessThanOrEqual(tool.startMs);
      expect(stage.endMs).toBeGreaterThanOrEqual(tool.endMs);
    }
    // the unknown tool's call failed: its span carries the error text
    expect(tools.filter((line) => line.status === "error").map((line) => line.name)).toEqual([
      "execute_tool no_such_tool",
    ]);
    const attempts = queryLines.filter((line) => line.name.startsWith("attempt "));
    expect(attempts).toHaveLength(result.toolCalls.reduce((sum, call) => sum + call.attempts.length, 0));
    for (const attempt of attempts) expect(byId.get(attempt.parentSpanId!)!.name).toMatch(/^execute_tool /);
  });
});
