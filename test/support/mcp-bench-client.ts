/**
 * An MCP client that starts a bench through `pnpm mcp` (stdio) and then dies with SIGKILL, as a killed
 * editor would: argv[2] is the results folder, argv[3] start_bench's arguments as JSON. It prints the run
 * id once the bench has done a task, then kills itself; the server it started keeps this process's stderr,
 * so the test reads the server's last lines there.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { REPO_ROOT } from "./bench-run.ts";

const [results, args] = process.argv.slice(2) as [string, string];
const client = new Client({ name: "abandoning-client", version: "0.0.0" });
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", "src/cli/bin.ts", "mcp", "--results", results],
    cwd: REPO_ROOT,
    env: getDefaultEnvironment(),
    stderr: "inherit",
  }),
);
const started = await client.callTool({ name: "start_bench", arguments: JSON.parse(args) as Record<string, unknown> });
const { runId } = started.structuredContent as { runId: string };
for (;;) {
  const status = await client.callTool({ name: "bench_status", arguments: { runId } });
  const { done, finished } = status.structuredContent as { done: number; finished: boolean };
  if (finished) throw new Error(`bench ${runId} finished before its client could abandon it`);
  if (done > 0) break;
}
process.stdout.write(`${JSON.stringify({ runId })}\n`, () => process.kill(process.pid, "SIGKILL"));
