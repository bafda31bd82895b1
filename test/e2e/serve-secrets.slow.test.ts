/**
 * Secrets never leave: a value planted in a variable models.yaml names as `api_key_env` goes through a
 * query and a bench whose prompts and tool results hold it; every output is searched for it — the run
 * folder's files, API responses (JSON, SSE, errors), MCP results and errors, and the CLI's stderr.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { harnessRedactor } from "../../src/bench/run/secrets.ts";
import { createApp } from "../../src/serve/app.ts";
import { benchQueryRunner } from "../../src/serve/query-runner.ts";
import { listen, type RunningServer } from "../../src/serve/server.ts";
import { HarnessService } from "../../src/serve/service.ts";
import { CLI, REPO_ROOT } from "../support/bench-run.ts";

const NAME = "VLLM_API_KEY";
const SECRET = "sk-planted-7f3a9c2e41d8b6";
const REDACTED = `[redacted:${NAME}]`;
const TITLE = "Settings page forgets the selected time zone";

let root: string;
let dataset: string;
let query: string;
let server: RunningServer;
const previous = process.env[NAME];

/** Every file under `dir`, as text. */
function filesUnder(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = join(entry.parentPath, entry.name);
      // the run files are gzip: their text is what they hold once inflated
      const bytes = readFileSync(file);
      return { file, text: (file.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8") };
    });
}

beforeAll(async () => {
  process.env[NAME] = SECRET;
  root = mkdtempSync(join(tmpdir(), "serve-secrets-"));
  // a dataset item whose query, gold arguments and tool results carry the secret
  const line = readFileSync(join(REPO_ROOT, "datasets", "github.jsonl"), "utf8")
    .split("\n")
    .find((text) => text.includes('"id":"gh-s029"'))!;
  expect(line).toContain(TITLE);
  dataset = join(root, "secret.jsonl");
  writeFileSync(dataset, `${line.split(TITLE).join(SECRET)}\n`);
  query = (JSON.parse(readFileSync(dataset, "utf8")) as { query: string }).query;
  const redactor = harnessRedactor();
  server = await listen(
    createApp({
      service: new HarnessService({ resultsRoot: join(root, "results"), datasetDirs: [root] }),
      runner: benchQueryRunner({ dataset: [dataset] }),
      outgoing: (value) => redactor.value(value),
    }),
  );
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
  if (previous === undefined) delete process.env[NAME];
  else process.env[NAME] = previous;
});

async function text(path: string, init: RequestInit = {}): Promise<string> {
  return (await fetch(`${server.url}${path}`, init)).text();
}

function postInit(body: unknown, accept = "application/json"): RequestInit {
  return { method: "POST", headers: { "content-type": "application/json", accept }, body: JSON.stringify(body) };
}

describe("secrets never leave", () => {
  it("are redacted from API responses, streamed stages and errors", async () => {
    const body = { query, model: "sim:oracle", config: "onsetlab-plus" };
    const answer = await text("/run", postInit(body));
    expect(answer).not.toContain(SECRET);
    // the planted value was in the trace (prompt, arguments, result) before redaction
    expect(answer).toContain(REDACTED);
    const parsed = JSON.parse(answer) as {
      score?: unknown;
      result: { toolCalls: { args: Record<string, unknown> }[] };
    };
    expect(parsed.score).toBeDefined();
    expect(JSON.stringify(parsed.result.toolCalls.map((call) => call.args))).toContain(REDACTED);
    const streamed = await text("/run", postInit(body, "text/event-stream"));
    expect(streamed).toContain("event: done");
    expect(streamed).not.toContain(SECRET);
    expect(streamed).toContain(REDACTED);
    const error = await text("/run", postInit({ query, model: SECRET }));
    expect(error).toContain('"field":"model"');
    expect(error).not.toContain(SECRET);
  });

  it("are redacted from a bench's run files and the records the API serves", async () => {
    const started = JSON.parse(
      await text("/bench", postInit({ models: ["sim:oracle"], configs: ["onsetlab-plus"], dataset: [dataset] })),
    ) as { runId: string };
    expect(await text(`/runs/${started.runId}/events`)).toContain("event: finished");
    const files = filesUnder(join(root, "results", started.runId));
    expect(files.map((file) => file.file.split("/").at(-1)).sort()).toEqual(
      expect.arrayContaining(["records.jsonl.gz", "run.json", "summary.json", "traces.jsonl.gz"]),
    );
    for (const { file, text: content } of files) expect(content, file).not.toContain(SECRET);
    expect(files.find((file) => file.file.endsWith("records.jsonl.gz"))!.text).toContain(REDACTED);
    const items = JSON.parse(await text(`/runs/${started.runId}/items`)) as { rows: { key: string }[] };
    const record = await text(`/runs/${started.runId}/items/${encodeURIComponent(items.rows[0]!.key)}`);
    expect(record).toContain(REDACTED);
    expect(record).not.toContain(SECRET);
  });

  it("are redacted from MCP results, MCP errors and the server's stderr", async () => {
    let stderr = "";
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...CLI, "mcp", "--results", join(root, "results"), "--dataset", dataset],
      cwd: REPO_ROOT,
      env: { ...getDefaultEnvironment(), [NAME]: SECRET },
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: "secrets-test", version: "0.0.0" });
    await client.connect(transport);
    try {
      await client.listTools();
      const run = await client.callTool({
        name: "run_query",
        arguments: { query, model: "sim:oracle", config: "onsetlab-plus" },
      });
      expect(run.isError).toBeFalsy();
      expect(JSON.stringify(run)).not.toContain(SECRET);
      expect(JSON.stringify(run)).toContain(REDACTED);
      const failed = await client.callTool({ name: "run_query", arguments: { query, model: SECRET } });
      expect(failed.isError).toBe(true);
      expect(JSON.stringify(failed)).not.toContain(SECRET);
    } finally {
      await client.close();
    }
    expect(stderr).not.toContain(SECRET);
  }, 60_000);

  it("are redacted from the CLI's error lines", async () => {
    const run = promisify(execFile);
    const failed = await run(
      process.execPath,
      [...CLI, "agent", "hello", "--model", "sim:oracle", "--config", SECRET],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, [NAME]: SECRET },
      },
    ).then(
      () => ({ stderr: "", code: 0 }),
      (error: { stderr: string; code: number }) => error,
    );
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain(REDACTED);
    expect(failed.stderr).not.toContain(SECRET);
  }, 60_000);
});
