/**
 * Browser-side attacks on the local servers, over real sockets: a page rebound to 127.0.0.1 (DNS
 * rebinding: its own name in `Host`), a cross-site page (`Origin`, `Sec-Fetch-Site`), a `text/plain`
 * body (a request that skips the CORS preflight), a body too large, and a bench `dataset` that names a
 * file outside the project. Every route of the service, its event streams, its static files and
 * `mcp --http` answer 403 to another site.
 */

import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBench } from "../../src/bench/run/bench.ts";
import { harnessRedactor } from "../../src/bench/run/secrets.ts";
import { createApp } from "../../src/serve/app.ts";
import { mcpHttpApp } from "../../src/serve/mcp-server.ts";
import { benchQueryRunner } from "../../src/serve/query-runner.ts";
import { listen, type RunningServer } from "../../src/serve/server.ts";
import { HarnessService } from "../../src/serve/service.ts";
import { benchRequest } from "../support/bench-run.ts";

let service: HarnessService;
let server: RunningServer;
let mcp: RunningServer;
let runId: string;

/** A raw HTTP request, so that `Host` can be anything (fetch sets its own). */
function send(
  url: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(path, url);
    const outgoing = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: options.method ?? "GET",
        headers: options.headers,
      },
      (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => {
          body += chunk.toString();
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(options.body);
  });
}

beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), "serve-attacks-"));
  runId = (
    await runBench({
      request: benchRequest({ models: ["sim:oracle"], configs: ["onsetlab"], matrix: undefined, limit: 2 }),
      resultsRoot: root,
    })
  ).runId;
  const view = join(root, "view");
  mkdirSync(view);
  writeFileSync(join(view, "index.html"), "<!doctype html><title>viewer</title>");
  writeFileSync(join(view, "app.js"), "console.log('viewer')");
  service = new HarnessService({ resultsRoot: root });
  server = await listen(createApp({ service, runner: benchQueryRunner(), viewDir: view }));
  mcp = await listen(mcpHttpApp({ service, runner: benchQueryRunner(), redactor: harnessRedactor() }).app);
});

afterAll(async () => {
  await server?.close();
  await mcp?.close();
});

const port = (running: RunningServer) => new URL(running.url).port;

describe("DNS rebinding and cross-site pages", () => {
  const routes = (): [string, string][] => [
    ["GET", "/"],
    ["GET", "/app.js"],
    ["GET", "/health"],
    ["GET", "/runs"],
    ["GET", `/runs/${runId}`],
    ["GET", `/runs/${runId}/items`],
    ["GET", `/runs/${runId}/events`],
    ["GET", "/models"],
    ["POST", "/run"],
    ["POST", "/bench"],
  ];
  const json = { "content-type": "application/json" };

  it("the service answers every route, event stream and static file with 403 to another site's Host", async () => {
    for (const [method, path] of routes()) {
      const rebound = await send(server.url, path, {
        method,
        headers: { host: `attacker.example:${port(server)}`, ...json },
        ...(method === "POST" ? { body: '{"models":["sim:oracle"],"query":"q","model":"sim:oracle"}' } : {}),
      });
      expect(rebound.status, `${method} ${path}`).toBe(403);
      expect(JSON.parse(rebound.body).error.code).toBe("FORBIDDEN_HOST");
    }
  });

  it("the service answers 403 to a cross-origin Origin and to Sec-Fetch-Site: cross-site", async () => {
    for (const [method, path] of routes()) {
      const host = { host: `127.0.0.1:${port(server)}` };
      const fromSite = await send(server.url, path, {
        method,
        headers: { ...host, origin: "http://attacker.example" },
      });
      expect(fromSite.status, `${method} ${path}`).toBe(403);
      const nullOrigin = await send(server.url, path, { method, headers: { ...host, origin: "null" } });
      expect(nullOrigin.status, `${method} ${path}`).toBe(403);
      const crossSite = await send(server.url, path, { method, headers: { ...host, "sec-fetch-site": "cross-site" } });
      expect(crossSite.status, `${method} ${path}`).toBe(403);
    }
    // the page's own origin, and a client without one (curl), are served
    const own = await send(server.url, "/health", { headers: { origin: server.url } });
    expect(own.status).toBe(200);
    expect((await send(server.url, "/runs")).status).toBe(200);
    expect((await send(server.url, "/health", { headers: { host: `localhost:${port(server)}` } })).status).toBe(200);
  });

  it("mcp --http answers 403 to another site's Host or Origin", async () => {
    const initialize = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
    });
    const headers = { ...json, accept: "application/json, text/event-stream" };
    for (const method of ["GET", "POST", "DELETE"]) {
      const rebound = await send(mcp.url, "/mcp", {
        method,
        headers: { ...headers, host: `attacker.example:${port(mcp)}` },
        ...(method === "POST" ? { body: initialize } : {}),
      });
      expect(rebound.status, method).toBe(403);
      const fromSite = await send(mcp.url, "/mcp", {
        method,
        headers: { ...headers, origin: "http://attacker.example" },
        ...(method === "POST" ? { body: initialize } : {}),
      });
      expect(fromSite.status, method).toBe(403);
    }
    const own = await send(mcp.url, "/mcp", { method: "POST", headers, body: initialize });
    expect(own.status).toBe(200);
  });
});

describe("request bodies", () => {
  it("must be JSON: a text/plain body (which skips a browser's preflight) is refused with 415", async () => {
    const body = JSON.stringify({ models: ["sim:oracle"] });
    const plain = await send(server.url, "/bench", { method: "POST", headers: { "content-type": "text/plain" }, body });
    expect(plain.status).toBe(415);
    const none = await send(mcp.url, "/mcp", { method: "POST", body });
    expect(none.status).toBe(415);
  });

  it("are limited (1 MB by default): a larger one is refused with 413 before it is parsed", async () => {
    const big = JSON.stringify({ query: "x".repeat(2 * 1024 * 1024), model: "sim:oracle" });
    const refused = await send(server.url, "/run", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: big,
    });
    expect(refused.status).toBe(413);
    // the refused body's connection is closed, not reused: the next request is answered
    expect((await send(server.url, "/health")).status).toBe(200);
    const raised = await listen(createApp({ service, runner: benchQueryRunner() }), { maxBodyBytes: 4 * 1024 * 1024 });
    try {
      const accepted = await send(raised.url, "/run", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "sim:oracle", query: "x".repeat(2 * 1024 * 1024), extra: true }),
      });
      // read and parsed: refused by the schema (400), not by the limit
      expect(accepted.status).toBe(400);
    } finally {
      await raised.close();
    }
  });
});

describe("a bench's dataset", () => {
  it("must lie in the project or a folder given at start: no reading of any file the process can read", async () => {
    const bench = (dataset: string[], target = server.url) =>
      send(target, "/bench", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ models: ["sim:oracle"], configs: ["onsetlab"], dataset, first: 1 }),
      });
    for (const path of ["/etc/passwd", "../../../../etc/passwd", "datasets/../../outside.jsonl"]) {
      const refused = await bench([path]);
      expect(refused.status, path).toBe(400);
      expect(JSON.parse(refused.body).error).toMatchObject({ code: "DATASET_OUTSIDE", field: "dataset" });
      expect(refused.body).not.toContain("root:");
    }
    const folder = mkdtempSync(join(tmpdir(), "serve-attacks-data-"));
    const allowed = new HarnessService({ resultsRoot: service.resultsRoot, datasetDirs: [folder] });
    const given = await listen(createApp({ service: allowed, runner: benchQueryRunner() }));
    try {
      // inside a folder given at start: past the path check (the loader then reports the missing file)
      const inside = await bench([join(folder, "missing.jsonl")], given.url);
      expect(JSON.parse(inside.body).error?.code).not.toBe("DATASET_OUTSIDE");
    } finally {
      await given.close();
    }
  });
});
