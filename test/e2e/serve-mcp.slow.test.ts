/**
 * `mcp` over stdio, driven by the SDK's Client: the tools and their schemas, a query, a bench started
 * and followed to its end, its summary, a comparison and one item.
 */

import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/bench-run.ts";
import { runInProcess } from "../support/cli-in-process.ts";

const TOOLS = [
  "bench_status",
  "compare_runs",
  "get_item",
  "get_summary",
  "list_configurations",
  "list_models",
  "run_query",
  "start_bench",
];

let root: string;
let client: Client;
let stderr = "";

type Structured = Record<string, unknown>;

async function call(name: string, args: Record<string, unknown> = {}): Promise<Structured> {
  const response = await client.callTool({ name, arguments: args });
  if (response.isError) throw new Error(JSON.stringify(response.content));
  const text = (response.content as { type: string; text: string }[])[0]!.text;
  expect(JSON.parse(text)).toEqual(response.structuredContent);
  return response.structuredContent as Structured;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "serve-mcp-"));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", "src/cli/bin.ts", "mcp", "--results", root],
    cwd: REPO_ROOT,
    env: getDefaultEnvironment(),
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  client = new Client({ name: "serve-mcp-test", version: "0.0.0" });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("pnpm mcp over stdio", () => {
  it("lists the tools, each with input and output schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(tool.outputSchema?.type, tool.name).toBe("object");
    }
  });

  it("refuses unknown argument keys (additionalProperties: false): a misspelt dryRun never runs the query", async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
    const misspelt = await client.callTool({
      name: "run_query",
      arguments: { query: "create an event", model: "sim:oracle", dryrun: true },
    });
    expect(misspelt.isError).toBe(true);
    expect(JSON.stringify(misspelt.content)).toMatch(/dryrun/);
    const extra = await client.callTool({ name: "list_models", arguments: { verbose: true } });
    expect(extra.isError).toBe(true);
  });

  it("lists models and configurations", async () => {
    const { models } = (await call("list_models")) as { models: { name: string }[] };
    expect(models.length).toBeGreaterThan(0);
    const { configurations, matrices } = (await call("list_configurations")) as {
      configurations: { name: string }[];
      matrices: Record<string, string[]>;
    };
    expect(configurations.map((config) => config.name)).toContain("onsetlab-plus");
    expect(Object.keys(matrices).length).toBeGreaterThan(0);
  });

  it("runs a dataset query and scores it", async () => {
    const run = await call("run_query", { itemId: "gh-s001", model: "sim:oracle", config: "onsetlab-plus" });
    expect(run.item).toMatchObject({ id: "gh-s001" });
    expect(typeof run.taskSuccess).toBe("boolean");
    expect((run.toolCalls as unknown[]).length).toBeGreaterThan(0);
    expect(run.answer).not.toBe("");
    const bad = await client.callTool({ name: "run_query", arguments: { model: "sim:oracle" } });
    expect(bad.isError).toBe(true);
  });

  it("runs a conversation with limits, and refuses an unknown tool naming the field", async () => {
    const query = "What open issues do we have in acme/webapp?";
    const first = await call("run_query", {
      model: "sim:oracle",
      config: "native",
      messages: [{ role: "user", content: query }],
      max_tool_calls: 0,
    });
    expect(first).toMatchObject({
      turn: 1,
      stoppedBy: "max_tool_calls",
      limits: { max_tool_calls: 0, timeout_s: 120 },
    });
    const next = await call("run_query", {
      model: "sim:oracle",
      config: "native",
      conversationId: first.conversationId,
      query,
    });
    expect(next).toMatchObject({ conversationId: first.conversationId, turn: 2 });
    expect(next.stoppedBy).toBeUndefined();
    expect(next.toolCalls).toEqual([expect.objectContaining({ tool: "list_issues", ok: true })]);
    const bad = await client.callTool({
      name: "run_query",
      arguments: { model: "sim:oracle", query, allowed_tools: ["no_such_tool"] },
    });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain("allowed_tools");
  });

  it("starts a bench, follows it to the end, and reads its summary, a comparison and an item", async () => {
    const { runId } = (await call("start_bench", {
      models: ["sim:oracle"],
      configs: ["onsetlab", "onsetlab-plus"],
      limit: 3,
      seed: 5,
    })) as { runId: string };
    let status = await call("bench_status", { runId });
    for (let tries = 0; !status.finished && tries < 600; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = await call("bench_status", { runId });
    }
    expect(status).toMatchObject({ runId, running: false, finished: true, done: 6, total: 6 });
    const summary = (await call("get_summary", { runId })) as {
      records: number;
      rows: { config: string; n: number }[];
    };
    expect(summary.records).toBe(6);
    expect(summary.rows.map((row) => row.config).sort()).toEqual(["onsetlab", "onsetlab-plus"]);
    const compare = (await call("compare_runs", { runId, a: "onsetlab", b: "onsetlab-plus" })) as {
      total: number;
      rows: { a: { key: string } }[];
    };
    expect(compare.total).toBe(3);
    const key = compare.rows[0]!.a.key;
    const item = (await call("get_item", { runId, key })) as { key: string; checks: unknown[] };
    expect(item.key).toBe(key);
    expect(item.checks.length).toBeGreaterThan(0);
    const missing = await client.callTool({ name: "get_item", arguments: { runId, key: "no|such|key|0" } });
    expect(missing.isError).toBe(true);
    expect(stderr).not.toMatch(/error/i);
  });
});

describe("pnpm mcp: bad flags", () => {
  it("--port without --http is one line naming it, exit 2", async () => {
    const outcome = await runInProcess(["mcp", "--port", "5"]);
    expect(outcome).toMatchObject({ code: 2, stdout: "" });
    expect(outcome.stderr).toBe("error: --port is the port of --http: add --http (over stdio there is no port)\n");
  });

  it("--idle-timeout without --http, or not a whole number of seconds, is one line naming it, exit 2", async () => {
    const stdio = await runInProcess(["mcp", "--idle-timeout", "5"]);
    expect(stdio).toMatchObject({ code: 2, stdout: "" });
    expect(stdio.stderr).toBe(
      "error: --idle-timeout is for --http sessions: add --http (over stdio the session ends with stdin)\n",
    );
    const zero = await runInProcess(["mcp", "--http", "--idle-timeout", "0"]);
    expect(zero).toMatchObject({ code: 2, stdout: "" });
    expect(zero.stderr).toBe('error: --idle-timeout must be a whole number ≥ 1, not "0"\n');
    // past setTimeout's limit the timer would fire at once and end every session
    const huge = await runInProcess(["mcp", "--http", "--idle-timeout", "2147484"]);
    expect(huge).toMatchObject({ code: 2, stdout: "" });
    expect(huge.stderr).toBe('error: --idle-timeout must be at most 2147483 seconds, not "2147484"\n');
  });
});

describe("pnpm mcp --http", () => {
  it("answers over Streamable HTTP on 127.0.0.1", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/bin.ts", "mcp", "--http", "--results", root], {
      cwd: REPO_ROOT,
      stdio: ["ignore", "ignore", "pipe"],
    });
    try {
      let output = "";
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          const found = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(output);
          if (found) resolve(found[1]!);
        });
        child.once("exit", () => reject(new Error(`mcp --http exited: ${output}`)));
      });
      const http = new Client({ name: "serve-mcp-http-test", version: "0.0.0" });
      await http.connect(new StreamableHTTPClientTransport(new URL(url)));
      expect((await http.listTools()).tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
      const models = await http.callTool({ name: "list_models", arguments: {} });
      expect((models.structuredContent as { models: unknown[] }).models.length).toBeGreaterThan(0);
      await http.close();
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  }, 60_000);
});
