/**
 * Server-side failure modes of a real model server, table-driven, in process: each ends with one clear
 * line (the model, the host and the cause) and the right exit code, or is retried away; nothing already
 * finished is lost, and `--resume` against a healthy server completes the run.
 *
 * A fault proxy stands between the bench and the stand-in (real mode): it passes the first requests
 * through, then fails in one way. The stand-in answers from the oracle simulator.
 */

import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type Standin, startStandin } from "../../mock-servers/ollama/server.ts";
import { loadDataset } from "../../src/bench/dataset/load.ts";
import { runBench } from "../../src/bench/run/bench.ts";
import { RUN_FILES, readJsonl } from "../../src/bench/run/store.ts";
import { checkInvalid } from "../../src/cli/bench.ts";
import { reportError } from "../../src/cli/exit.ts";
import { createSimProvider } from "../../src/models/sim/index.ts";
import { benchRequest } from "../support/bench-run.ts";
import { type Fault, type FaultProxy, faultProxy } from "../support/fault-proxy.ts";

const root = mkdtempSync(join(tmpdir(), "onsetlab-server-failures-"));
const modelsFile = join(root, "models.yaml");
let standin: Standin;

beforeAll(async () => {
  const gold = loadDataset([]).map((loaded) => loaded.item);
  standin = await startStandin({ provider: createSimProvider({ profile: "oracle", gold }), port: 0, real: true });
  // short waits between attempts: the retries are exercised, not waited for
  const entry = "{ provider: ollama, retry_ms: [5, 10] }";
  writeFileSync(
    modelsFile,
    [
      "models:",
      `  qwen2.5:3b: ${entry}`,
      `  qwen2.5:3bb: ${entry}`,
      `  gemma2:2b: ${entry}`,
      "configurations:",
      "  rewoo: { strategy: rewoo, rescue: false, fallback: false }",
      "  native: { strategy: native }",
      "",
    ].join("\n"),
  );
});

const savedHost = process.env.OLLAMA_HOST;
afterEach(() => {
  vi.restoreAllMocks();
  if (savedHost === undefined) delete process.env.OLLAMA_HOST;
  else process.env.OLLAMA_HOST = savedHost;
});

afterAll(async () => {
  await standin.close();
  rmSync(root, { recursive: true, force: true });
});

const GENERATION = /^\/api\/(chat|generate)$/;

/**
 * A proxy to the stand-in whose generation requests after the first `healthy` (the warm-up counts) get the
 * fault (`times` of them, when given; then healthy again). `show` faults hit /api/show instead.
 */
function countingProxy(fault: Fault, healthy: number, path: RegExp = GENERATION): Promise<FaultProxy> {
  let seen = 0;
  let faults = 0;
  return faultProxy(standin.url, (target) =>
    path.test(target) && seen++ >= healthy && ("times" in fault ? faults++ < fault.times! : true) ? fault : undefined,
  );
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Outcome {
  code: number;
  line: string;
  runId?: string;
  records: string[];
}

const request = (model: string, config: string) =>
  benchRequest({ models: [model], configs: [config], matrix: undefined, limit: 4 });

function recordKeys(runId: string | undefined): string[] {
  if (!runId) return [];
  try {
    return readJsonl<{ key: string }>(join(root, "results", runId, RUN_FILES.records)).rows.map((row) => row.key);
  } catch {
    return [];
  }
}

/** One bench run in process, as the CLI ends it: exit code and the one line on stderr. */
async function bench(host: string, model = "qwen2.5:3b", config = "rewoo"): Promise<Outcome> {
  process.env.OLLAMA_HOST = host;
  let runId: string | undefined;
  try {
    const outcome = await runBench({ request: request(model, config), modelsFile, resultsRoot: join(root, "results") });
    runId = outcome.runId;
    checkInvalid(outcome.summary, false);
    return { code: 0, line: "", runId, records: recordKeys(runId) };
  } catch (error) {
    const lines: string[] = [];
    const code = reportError(error, (line) => lines.push(line));
    runId ??= /--resume (\S+)/.exec(String((error as Error).message))?.[1];
    return { code, line: lines.join(""), runId, records: recordKeys(runId) };
  }
}

interface Case {
  name: string;
  /** The host the bench is pointed at (a proxy is made for faults). */
  host: () => Promise<{ url: string; close?: () => Promise<void> }>;
  model?: string;
  config?: string;
  code: number;
  line: RegExp;
  /** Records kept when the run stopped (a stopped run then resumes to completion). */
  kept?: "some" | "none" | "all";
}

const proxied =
  (fault: Fault, healthy = 4, path?: RegExp) =>
  () =>
    countingProxy(fault, healthy, path);
const model = "model ollama:qwen2\\.5:3b: ";
const at = "Ollama at http://127\\.0\\.0\\.1:\\d+";

const cases: Case[] = [
  {
    name: "connection refused before the first item",
    host: async () => ({ url: `http://127.0.0.1:${await closedPort()}` }),
    code: 1,
    line: new RegExp(`^error: ${model}cannot reach ${at} \\(ECONNREFUSED: connection refused\\): start it`),
    kept: "none",
  },
  {
    name: "OLLAMA_HOST=http://127.0.0.1:1 (a port nothing may listen on)",
    host: async () => ({ url: "http://127.0.0.1:1" }),
    code: 1,
    line: new RegExp(
      `^error: ${model}cannot reach Ollama at http://127\\.0\\.0\\.1:1 \\(BAD_PORT: fetch refuses to connect to this port, one the fetch standard blocks: serve on another port\\)\\n$`,
    ),
    kept: "none",
  },
  {
    name: "TLS to a server that does not speak it",
    host: async () => {
      const proxy = await countingProxy({ kind: "reset" }, 1e9);
      return { url: proxy.url.replace("http:", "https:"), close: proxy.close };
    },
    code: 1,
    line: new RegExp(`^error: ${model}cannot reach Ollama at https://127\\.0\\.0\\.1:\\d+ \\(.*TLS`),
    kept: "none",
  },
  {
    name: "a mistyped model (404): the server's close names, from its /api/tags",
    host: async () => ({ url: standin.url }),
    model: "qwen2.5:3bb",
    code: 1,
    line: /^error: model ollama:qwen2\.5:3bb: model "qwen2\.5:3bb" not found on Ollama at .*: it has "qwen2\.5:3b", "qwen2\.5:7b": pick one \(--model\), or run `ollama pull qwen2\.5:3bb`/,
    kept: "none",
  },
  {
    name: "native on a model without the tools capability (decided before any item)",
    host: async () => ({ url: standin.url }),
    model: "gemma2:2b",
    config: "native",
    code: 2,
    line: /^error: model gemma2:2b has no "tools" capability \(its server lists: completion\), so configuration native/,
    kept: "none",
  },
  {
    name: "/api/show fails (500) before the first item",
    host: proxied({ status: 500, body: '{"error":"llama runner process has terminated"}' }, 0, /^\/api\/show$/),
    code: 1,
    line: /^error: model qwen2\.5:3b: Ollama at .* answered 500: llama runner process has terminated/,
    kept: "none",
  },
  {
    name: "400 bad request mid-run",
    host: proxied({ status: 400, body: '{"error":"invalid options: num_ctx"}' }),
    code: 1,
    line: new RegExp(
      `^error: ${model}${at} answered 400: invalid options: num_ctx; then continue the run with --resume`,
    ),
    kept: "some",
  },
  {
    name: "401 unauthorized mid-run (a proxy with a key)",
    host: proxied({ status: 401, body: '{"error":"unauthorized"}' }),
    code: 1,
    line: new RegExp(`^error: ${model}${at} answered 401: unauthorized; then continue`),
    kept: "some",
  },
  {
    name: "403 forbidden mid-run",
    host: proxied({ status: 403, body: '{"error":"forbidden"}' }),
    code: 1,
    line: new RegExp(`^error: ${model}${at} answered 403: forbidden; then continue`),
    kept: "some",
  },
  {
    name: "connection reset on every request mid-run (retried, then stopped)",
    host: proxied({ kind: "reset" }),
    code: 1,
    line: new RegExp(`^error: ${model}cannot reach ${at} \\((ECONNRESET|UND_ERR_SOCKET|EPIPE): .*then continue`),
    kept: "some",
  },
  {
    name: "the server goes away mid-run",
    host: proxied({ kind: "gone" }),
    code: 1,
    line: new RegExp(`^error: ${model}cannot reach ${at} \\(.*\\).*then continue the run with --resume`),
    kept: "some",
  },
  {
    name: '500 "no user query found in messages" on every call mid-run: invalid, not wrong',
    host: proxied({ status: 500, body: '{"error":"no user query found in messages"}' }),
    code: 1,
    line: /^error: more than 5% of the items are invalid in qwen2\.5:3b × rewoo: 3 of 4 \(server_error 3\)/,
    kept: "all",
  },
  {
    name: "503 queue full on every call mid-run: retried, then invalid",
    host: proxied({
      status: 503,
      body: '{"error":"server busy, please try again.  maximum pending requests exceeded"}',
    }),
    code: 1,
    line: /^error: more than 5% of the items are invalid in qwen2\.5:3b × rewoo: 3 of 4 \(server_error 3\)/,
    kept: "all",
  },
  {
    name: "503 twice, then room again: retried away",
    host: proxied({ status: 503, body: '{"error":"server busy, please try again."}', times: 2 }),
    code: 0,
    line: /^$/,
    kept: "all",
  },
  {
    name: "429 once: retried away",
    host: proxied({ status: 429, body: '{"error":"rate limited"}', times: 1 }),
    code: 0,
    line: /^$/,
    kept: "all",
  },
  {
    name: "an answer that is not JSON (a proxy's error page): invalid, not wrong",
    host: proxied({ kind: "not-json" }),
    code: 1,
    line: /^error: more than 5% of the items are invalid in qwen2\.5:3b × rewoo: 3 of 4 \(server_error 3\)/,
    kept: "all",
  },
  {
    name: "an answer without a message: invalid, not wrong",
    host: proxied({ kind: "no-message" }, 4, /^\/api\/generate$/),
    code: 1,
    line: /server_error 3\)/,
    kept: "all",
  },
];

describe("server-side failures of a real model server", () => {
  it.each(cases)("$name", async (failure) => {
    const host = await failure.host();
    let outcome: Outcome;
    try {
      outcome = await bench(host.url, failure.model, failure.config);
    } finally {
      await host.close?.();
    }
    expect(outcome.line).toMatch(failure.line);
    expect(outcome.line.trim().split("\n")).toHaveLength(1);
    expect(outcome.code).toBe(failure.code);
    if (failure.kept === "none") {
      expect(outcome.records).toEqual([]);
      return;
    }
    if (failure.kept === "all") {
      expect(outcome.records).toHaveLength(4);
      return;
    }
    // stopped mid-run: what finished is on disk, and a resume against a healthy server completes it
    expect(outcome.records.length).toBeGreaterThan(0);
    expect(outcome.records.length).toBeLessThan(4);
    process.env.OLLAMA_HOST = standin.url;
    const resumed = await runBench({
      request: request("qwen2.5:3b", "rewoo"),
      resume: outcome.runId,
      modelsFile,
      resultsRoot: join(root, "results"),
    });
    expect(resumed.skipped).toBe(outcome.records.length);
    expect(resumed.summary.records).toBe(4);
    expect(recordKeys(outcome.runId).slice(0, outcome.records.length)).toEqual(outcome.records);
    expect(resumed.summary.rows[0]!.invalid).toEqual({ context_overflow: 0, output_truncated: 0, server_error: 0 });
  });

  it("a DNS failure stops the run with one line naming the host, the model and the cause", async () => {
    const noSuchHost = Object.assign(new Error("getaddrinfo ENOTFOUND gpu-box"), { code: "ENOTFOUND" });
    vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("fetch failed", { cause: noSuchHost }));
    const outcome = await bench("http://gpu-box:11434");
    expect(outcome.code).toBe(1);
    expect(outcome.line).toMatch(
      /^error: model ollama:qwen2\.5:3b: cannot reach Ollama at http:\/\/gpu-box:11434 \(ENOTFOUND: DNS: no such host\)/,
    );
    expect(outcome.records).toEqual([]);
  });
});
