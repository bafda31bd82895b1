/**
 * How a `pnpm mcp` session over stdio ends when its client misbehaves: a message larger than the limit
 * is one line naming it and exit 2 (the SDK's transport used to close itself and leave the process to
 * end with exit 13 and nothing said), and a bench whose client was killed stops, says how to resume it,
 * and `pnpm bench --resume RUN_ID` finishes it.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RunManifest } from "../../src/bench/run/run-file-types.ts";
import { RUN_FILES } from "../../src/bench/run/store.ts";
import { CLI, REPO_ROOT, runCli, strictRecordLines } from "../support/bench-run.ts";

const root = mkdtempSync(join(tmpdir(), "mcp-stdio-ends-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A child's exit and output once every pipe has closed (the grandchildren holding them too). */
function ended(child: ReturnType<typeof spawn>) {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
}

describe("pnpm mcp over stdio, ended by its client", () => {
  it("a 20 MB argument is one line naming --max-body and exit 2, not a silent exit 13", async () => {
    const child = spawn(process.execPath, [...CLI, "mcp", "--results", root], {
      cwd: REPO_ROOT,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const outcome = ended(child);
    // the server stops reading when it refuses the message: the rest of it may meet a closed pipe
    child.stdin!.on("error", () => {});
    const send = (message: unknown) => child.stdin!.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "run_query", arguments: { model: "sim:oracle", query: "x".repeat(20 * 1024 * 1024) } },
    });
    const { code, stderr } = await outcome;
    expect(code).toBe(2);
    expect(stderr).toBe(
      "error: a message from the MCP client is larger than --max-body (1048576 bytes); the session is closed (raise --max-body to accept it)\n",
    );
  });

  it("a bench whose client is killed stops, says how to resume, and --resume finishes it", async () => {
    const request = { models: ["sim:slm-3b"], matrix: "default", limit: 12, seed: 3 };
    const client = spawn(
      process.execPath,
      ["--import", "tsx", "test/support/mcp-bench-client.ts", root, JSON.stringify(request)],
      { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] },
    );
    // resolves when the server, which holds the client's stderr, has exited too
    const { signal, stdout, stderr } = await ended(client);
    expect(signal, stderr).toBe("SIGKILL");
    const { runId } = JSON.parse(stdout) as { runId: string };
    expect(stderr).toContain(
      `bench ${runId} stopped: its MCP client went away; resume it with \`pnpm bench --resume ${runId}\``,
    );
    const dir = join(root, runId);
    const manifest = () => JSON.parse(readFileSync(join(dir, RUN_FILES.run), "utf8")) as RunManifest;
    expect(manifest().finishedAt).toBeUndefined();
    const kept = strictRecordLines(dir).length;
    expect(kept).toBeLessThan(manifest().tasks);

    const resumed = await runCli(["bench", "--resume", runId], { ONSETLAB_RESULTS_DIR: root });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(manifest().finishedAt).toBeDefined();
    const keys = strictRecordLines(dir).map((record) => record.key);
    expect(keys).toHaveLength(manifest().tasks);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
