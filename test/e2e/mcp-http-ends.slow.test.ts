/**
 * How a bench started over `pnpm mcp --http` ends with the session that started it, as over stdio
 * (mcp-stdio-ends): a session its client deletes, and a session whose client just goes (no DELETE; the
 * server's idle timeout ends it), each stop their own bench, which says how to resume it and
 * `pnpm bench --resume RUN_ID` finishes; another session's bench runs on to its end. The server shutting
 * down stops the benches of every session.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { RunManifest } from "../../src/bench/run/run-file-types.ts";
import { RUN_FILES } from "../../src/bench/run/store.ts";
import { CLI, REPO_ROOT, runCli, strictRecordLines } from "../support/bench-run.ts";

const root = mkdtempSync(join(tmpdir(), "mcp-http-ends-"));
let server: ChildProcess | undefined;
afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill("SIGTERM");
    await once(server, "exit");
  }
  rmSync(root, { recursive: true, force: true });
});

const POLL = { timeout: 300_000, interval: 50 };

interface Status {
  running: boolean;
  finished: boolean;
  done: number;
  total: number;
}

async function connect(url: URL): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(url);
  const client = new Client({ name: "mcp-http-ends-test", version: "0.0.0" });
  await client.connect(transport);
  return { client, transport };
}

async function startBench(client: Client, args: Record<string, unknown>): Promise<string> {
  const started = await client.callTool({ name: "start_bench", arguments: args });
  expect(started.isError, JSON.stringify(started.content)).toBeFalsy();
  return (started.structuredContent as { runId: string }).runId;
}

async function status(client: Client, runId: string): Promise<Status> {
  return (await client.callTool({ name: "bench_status", arguments: { runId } })).structuredContent as Status;
}

/** Resolves once the bench has recorded a task; it must still be under way then, to be abandoned. */
async function underWay(client: Client, runId: string): Promise<void> {
  const now = await vi.waitFor(async () => {
    const current = await status(client, runId);
    expect(current.done > 0 || current.finished).toBe(true);
    return current;
  }, POLL);
  expect(now.finished, `bench ${runId} finished before its session could end`).toBe(false);
}

const manifestOf = (runId: string) => JSON.parse(readFileSync(join(root, runId, RUN_FILES.run), "utf8")) as RunManifest;

describe("pnpm mcp --http: a bench ends with the session that started it", () => {
  it("a deleted session and an abandoned one stop their benches, resumable; another session's runs to its end", async () => {
    server = spawn(process.execPath, [...CLI, "mcp", "--http", "--idle-timeout", "1", "--results", root], {
      cwd: REPO_ROOT,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    const stderrHas = (text: string) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (!stderr.includes(text)) return;
          server!.stderr!.off("data", check);
          resolve();
        };
        server!.stderr!.on("data", check);
        check();
      });
    server.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    await stderrHas("MCP server on ");
    const url = new URL(/(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)![1]!);
    const stopLine = (runId: string) =>
      `bench ${runId} stopped: its MCP client went away; resume it with \`pnpm bench --resume ${runId}\``;

    // the session that stays: its bench is the longest, under way through everything below
    const keeper = await connect(url);
    const kept = await startBench(keeper.client, { models: ["sim:slm-3b"], matrix: "default", limit: 40, seed: 1 });
    /** Waits until the bench is said stopped, or has finished after all (then the test fails at once). */
    const stopped = async (runId: string) => {
      await vi.waitFor(async () => {
        expect(stderr.includes(stopLine(runId)) || (await status(keeper.client, runId)).finished).toBe(true);
      }, POLL);
      expect(stderr).toContain(stopLine(runId));
    };

    // a client that deletes its session (DELETE /mcp)
    const deleting = await connect(url);
    const deleted = await startBench(deleting.client, {
      models: ["sim:slm-3b"],
      matrix: "default",
      limit: 12,
      seed: 3,
    });
    await underWay(deleting.client, deleted);
    const sessionId = deleting.transport.sessionId!;
    await deleting.transport.terminateSession();
    await stopped(deleted);
    expect(manifestOf(deleted).finishedAt).toBeUndefined();
    expect(strictRecordLines(join(root, deleted)).length).toBeLessThan(manifestOf(deleted).tasks);
    expect(await status(keeper.client, kept)).toMatchObject({ running: true, finished: false });
    const after = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(after.status).toBe(404);
    await deleting.client.close();

    // a client that goes without a word (no DELETE): its session idles out once its event stream closes
    const leaving = await connect(url);
    const left = await startBench(leaving.client, { models: ["sim:slm-3b"], matrix: "default", limit: 40, seed: 4 });
    await underWay(leaving.client, left);
    await leaving.client.close();
    await stopped(left);
    expect(manifestOf(left).finishedAt).toBeUndefined();

    // the keeper's session held its event stream open all along: its bench was never stopped
    const end = await vi.waitFor(async () => {
      const current = await status(keeper.client, kept);
      expect(current.finished).toBe(true);
      return current;
    }, POLL);
    expect(end.done).toBe(end.total);
    expect(strictRecordLines(join(root, kept))).toHaveLength(manifestOf(kept).tasks);
    expect(stderr).not.toContain(`bench ${kept} stopped`);
    await keeper.client.close();

    // the server shutting down ends every session: a bench under way stops, resumable
    const last = await connect(url);
    const cut = await startBench(last.client, { models: ["sim:slm-3b"], matrix: "default", limit: 40, seed: 5 });
    await underWay(last.client, cut);
    const closed = once(server, "close");
    server.kill("SIGTERM");
    await closed;
    expect(stderr).toContain(
      `bench ${cut} stopped: the MCP server was stopped; resume it with \`pnpm bench --resume ${cut}\``,
    );
    expect(manifestOf(cut).finishedAt).toBeUndefined();

    const resumed = await runCli(["bench", "--resume", deleted], { ONSETLAB_RESULTS_DIR: root });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(manifestOf(deleted).finishedAt).toBeDefined();
    const keys = strictRecordLines(join(root, deleted)).map((record) => record.key);
    expect(keys).toHaveLength(manifestOf(deleted).tasks);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
