/**
 * The HTTP API end to end over a real socket: every endpoint, every error case, the token when bound
 * elsewhere, the loopback default, and ids that try to leave the results folder.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runBench } from "../../src/bench/run/bench.ts";
import { createApp } from "../../src/serve/app.ts";
import { benchQueryRunner } from "../../src/serve/query-runner.ts";
import { listen, type RunningServer } from "../../src/serve/server.ts";
import { HarnessService } from "../../src/serve/service.ts";
import { benchRequest } from "../support/bench-run.ts";

const CONFIGS = ["onsetlab", "onsetlab-plus"];
// biome-ignore lint/suspicious/noExplicitAny: response bodies of every endpoint, read field by field
type Body = any;
let root: string;
let server: RunningServer;
let runId: string;
let service: HarnessService;

async function get(path: string, init: RequestInit = {}): Promise<{ status: number; body: Body }> {
  const response = await fetch(`${server.url}${path}`, init);
  const type = response.headers.get("content-type") ?? "";
  return { status: response.status, body: type.includes("json") ? await response.json() : await response.text() };
}

function post(path: string, body: unknown): Promise<{ status: number; body: Body }> {
  return get(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

/** Events of an SSE response read to its end. */
async function sse(path: string, init: RequestInit = {}): Promise<{ event: string; data: Body }[]> {
  const response = await fetch(`${server.url}${path}`, {
    ...init,
    headers: { accept: "text/event-stream", ...init.headers },
  });
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((block) => block.includes("data:"))
    .map((block) => ({
      event: /^event: (.*)$/m.exec(block)?.[1] ?? "message",
      data: JSON.parse(/^data: (.*)$/m.exec(block)![1]!),
    }));
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "serve-api-"));
  const bench = await runBench({
    request: benchRequest({ models: ["sim:oracle"], configs: CONFIGS, matrix: undefined, limit: 6, seed: 3 }),
    resultsRoot: root,
  });
  runId = bench.runId;
  // a folder beside the results that an id must never reach
  mkdirSync(join(root, "..", "serve-api-outside"), { recursive: true });
  service = new HarnessService({ resultsRoot: root });
  server = await listen(createApp({ service, runner: benchQueryRunner() }));
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("HTTP API", () => {
  it("binds 127.0.0.1 by default, on a free port", () => {
    expect(server.host).toBe("127.0.0.1");
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("is not reachable on the machine's other addresses by default", async () => {
    const other = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && address.family === "IPv4" && !address.internal);
    if (!other) return; // a machine with loopback only: nothing else to try
    const url = `http://${other.address}:${server.port}/health`;
    await expect(fetch(url, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
  });

  it("answers /health, /models, /configs, /matrices and /queries", async () => {
    expect((await get("/health")).body).toEqual({ status: "ok", version: "0.1.0" });
    const models = (await get("/models")).body as { name: string; simulated: boolean }[];
    expect(models.length).toBeGreaterThan(0);
    expect(models.every((model) => typeof model.simulated === "boolean")).toBe(true);
    const configs = (await get("/configs")).body as { name: string; matrix?: string[]; agent?: unknown }[];
    expect(configs.map((config) => config.name)).toEqual(expect.arrayContaining(CONFIGS));
    // a configuration running an agent definition says which, so the playground can offer it as such
    expect(configs.find((config) => config.name === "support")?.agent).toMatchObject({
      file: "examples/agents/support.md",
      protocol: "jsonl",
      hash: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(configs.find((config) => config.name === "onsetlab")?.agent).toBeUndefined();
    const matrices = (await get("/matrices")).body as Record<string, string[]>;
    for (const [matrix, names] of Object.entries(matrices)) {
      for (const name of names) expect(configs.find((config) => config.name === name)?.matrix).toContain(matrix);
    }
    const queries = (await get("/queries?q=open%20issues&limit=3")).body as { query: string }[];
    expect(queries).toHaveLength(3);
    expect(queries[0]!.query.toLowerCase()).toContain("open issues");
    expect((await get("/queries?limit=0")).status).toBe(400);
  });

  it("lists the run and gives its summary", async () => {
    const runs = (await get("/runs")).body as Body[];
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      runId,
      models: ["sim:oracle"],
      configs: CONFIGS,
      items: 6,
      tasks: 12,
      records: 12,
      running: false,
      label: "simulated",
      invalid: 0,
    });
    const run = (await get(`/runs/${runId}`)).body;
    // the runs list's task success and dataset: the summary's rows, the manifest's files by name
    expect(runs[0]!.taskSuccess).toEqual(
      run.summary.rows.map((row: { model: string; config: string; taskSuccess: { value: number } }) => ({
        model: row.model,
        config: row.config,
        value: row.taskSuccess.value,
      })),
    );
    expect(runs[0]!.dataset.files).toEqual(run.manifest.dataset.files.map((file: string) => basename(file)));
    expect(run.manifest.runId).toBe(runId);
    expect(run.summary.records).toBe(12);
    expect(run.progress).toBeNull();
  });

  it("pages and filters the items on the server", async () => {
    const all = (await get(`/runs/${runId}/items?pageSize=5`)).body;
    expect(all.total).toBe(12);
    expect(all.rows).toHaveLength(5);
    const second = (await get(`/runs/${runId}/items?pageSize=5&page=3`)).body;
    expect(second.rows).toHaveLength(2);
    const plus = (await get(`/runs/${runId}/items?config=onsetlab-plus`)).body;
    expect(plus.total).toBe(6);
    expect(plus.rows.every((row: Body) => row.config === "onsetlab-plus")).toBe(true);
    const passed = (await get(`/runs/${runId}/items?outcome=pass`)).body;
    const failed = (await get(`/runs/${runId}/items?outcome=fail`)).body;
    expect(passed.total + failed.total).toBe(12);
    expect(passed.rows.every((row: Body) => row.taskSuccess)).toBe(true);
    const category = all.rows[0].category;
    const ofCategory = (await get(`/runs/${runId}/items?category=${category}`)).body;
    expect(ofCategory.rows.every((row: Body) => row.category === category)).toBe(true);
    const byId = (await get(`/runs/${runId}/items?q=${all.rows[0].itemId}`)).body;
    expect(byId.rows.map((row: Body) => row.itemId)).toEqual([all.rows[0].itemId, all.rows[0].itemId]);
    for (const bad of ["outcome=maybe", "page=0", "pageSize=x", "color=red"]) {
      const response = await get(`/runs/${runId}/items?${bad}`);
      expect(response.status, bad).toBe(400);
      expect(response.body.error.field, bad).toBe(bad.split("=")[0]);
    }
  });

  it("gives one record expanded, with its checks", async () => {
    const [row] = (await get(`/runs/${runId}/items?pageSize=1`)).body.rows;
    const record = (await get(`/runs/${runId}/items/${encodeURIComponent(row.key)}`)).body;
    expect(record.key).toBe(row.key);
    for (const call of record.result.modelCalls) {
      expect(call.promptFrom).toBeUndefined();
      expect(call.prompt ?? call.messages).toBeDefined();
    }
    expect(record.checks.map((check: Body) => check.name)).toEqual(
      record.score.requirements.map((requirement: Body) => requirement.name),
    );
    expect(record.checks.every((check: Body) => typeof check.why === "string" && check.why !== "")).toBe(true);
    expect((await get(`/runs/${runId}/items/${encodeURIComponent("no|such|key|0")}`)).status).toBe(404);
  });

  it("compares two configurations item by item", async () => {
    const compare = (await get(`/runs/${runId}/compare?a=onsetlab&b=onsetlab-plus`)).body;
    const { both, aOnly, bOnly, neither } = compare.counts;
    expect(both + aOnly + bOnly + neither).toBe(6);
    expect(compare.total).toBe(6);
    const differ = (await get(`/runs/${runId}/compare?a=onsetlab&b=onsetlab-plus&only=differ`)).body;
    expect(differ.total).toBe(aOnly + bOnly);
    expect(differ.rows.every((row: Body) => row.a.pass !== row.b.pass)).toBe(true);
    const acrossRuns = (await get(`/runs/${runId}/compare?a=onsetlab&b=onsetlab&runB=${runId}`)).body;
    expect(acrossRuns.counts.aOnly + acrossRuns.counts.bOnly).toBe(0);
    expect((await get(`/runs/${runId}/compare?a=onsetlab`)).body.error.field).toBe("b");
    expect((await get(`/runs/${runId}/compare?a=onsetlab&b=nope`)).body.error.field).toBe("b");
    expect((await get(`/runs/${runId}/compare?a=onsetlab&b=onsetlab&runB=nope`)).status).toBe(404);
  });

  it("answers 404 for unknown runs and ids that try to leave the results folder", async () => {
    for (const id of ["nope", "...", "..%2fserve-api-outside", "..%2F..%2Fetc", "a%00b"]) {
      const response = await get(`/runs/${id}`);
      expect(response.status, id).toBe(404);
      expect(response.body.error.code, id).toBe("UNKNOWN_RUN");
    }
    expect((await get(`/runs/..%2f..%2fetc/items`)).status).toBe(404);
    expect((await get("/../../package.json")).status).toBe(404);
    expect((await get("/no-such-route")).status).toBe(404);
  });

  it("sends `finished` at once for a run not under way", async () => {
    const events = await sse(`/runs/${runId}/events`);
    expect(events).toEqual([{ event: "finished", data: { runId } }]);
    expect((await get("/runs/nope/events")).status).toBe(404);
  });

  it("runs a query, and streams one", async () => {
    const body = { itemId: "gh-s001", model: "sim:oracle", config: "onsetlab-plus" };
    const response = await post("/run", body);
    expect(response.status).toBe(200);
    expect(response.body.item.id).toBe("gh-s001");
    expect(response.body.label).toBe("simulated");
    const events = await sse("/run", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(events.at(-1)!.event).toBe("done");
    expect(events.filter((event) => event.event === "stage").length).toBeGreaterThan(3);
    const bad = await post("/run", { model: "sim:oracle" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe("query");
  });

  it("starts a bench and streams its progress to the end", async () => {
    const started = await post("/bench", { models: ["sim:oracle"], configs: ["onsetlab-plus"], limit: 3, seed: 2 });
    expect(started.status).toBe(202);
    const id = started.body.runId as string;
    const events = await sse(`/runs/${id}/events`);
    expect(events.at(-1)).toEqual({ event: "finished", data: { runId: id } });
    const progress = events.filter((event) => event.event === "progress").map((event) => event.data);
    for (const step of progress) expect(step.total).toBe(3);
    const run = (await get(`/runs/${id}`)).body;
    expect(run.summary.records).toBe(3);
    for (const [body, field] of [
      [{}, "models"],
      [{ models: [] }, "models"],
      [{ models: ["no-such-model"] }, "models"],
      [{ models: ["sim:oracle"], configs: ["nope"] }, "configs"],
      [{ models: ["sim:oracle"], matrix: "nope" }, "matrix"],
      [{ models: ["sim:oracle"], limit: -1 }, "limit"],
    ] as const) {
      const response = await post("/bench", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.field, JSON.stringify(body)).toBe(field);
    }
  });

  it("serves the viewer when built, and says how to build it when not", async () => {
    expect((await get("/")).status).toBe(200);
    const view = mkdtempSync(join(tmpdir(), "serve-view-"));
    writeFileSync(join(view, "index.html"), "<!doctype html><title>viewer</title>");
    const withView = await listen(createApp({ service, runner: benchQueryRunner(), viewDir: view }));
    try {
      expect(await (await fetch(`${withView.url}/`)).text()).toContain("<title>viewer</title>");
      expect((await fetch(`${withView.url}/..%2f..%2fetc%2fpasswd`)).status).toBe(404);
    } finally {
      await withView.close();
      rmSync(view, { recursive: true, force: true });
    }
    const bare = await listen(createApp({ service, runner: benchQueryRunner(), viewDir: join(view, "absent") }));
    try {
      expect(await (await fetch(`${bare.url}/`)).text()).toContain("pnpm build");
    } finally {
      await bare.close();
    }
  });
});

describe("token", () => {
  it("is required to bind anything but loopback", async () => {
    const app = createApp({ service, runner: benchQueryRunner() });
    await expect(listen(app, { host: "0.0.0.0" })).rejects.toThrow(/--token/);
  });

  it("guards every request when set, via the header or the cookie, never the URL", async () => {
    const app = createApp({ service, runner: benchQueryRunner(), token: "s3cret-token" });
    const guarded = await listen(app, { token: "s3cret-token" });
    try {
      for (const path of ["/health", "/runs", `/runs/${runId}`, "/models"]) {
        expect((await fetch(`${guarded.url}${path}`)).status, path).toBe(401);
        expect((await fetch(`${guarded.url}${path}`, { headers: { cookie: "onsetlab_token=wrong" } })).status).toBe(
          401,
        );
        // a token in the URL is refused: URLs end up in history, logs and Referer headers
        expect((await fetch(`${guarded.url}${path}?token=s3cret-token`)).status, path).toBe(401);
        const cookie = { headers: { cookie: "onsetlab_token=s3cret-token" } };
        expect((await fetch(`${guarded.url}${path}`, cookie)).status, path).toBe(200);
        const header = { headers: { authorization: "Bearer s3cret-token" } };
        expect((await fetch(`${guarded.url}${path}`, header)).status, path).toBe(200);
        const longer = { headers: { authorization: "Bearer s3cret-token-and-more" } };
        expect((await fetch(`${guarded.url}${path}`, longer)).status, path).toBe(401);
      }
      // the viewer's own page holds no data: it loads without the token, then asks for it
      expect((await fetch(`${guarded.url}/`)).status).toBe(200);
      const events = await fetch(`${guarded.url}/runs/${runId}/events`, {
        headers: { cookie: "onsetlab_token=s3cret-token" },
      });
      expect(await events.text()).toContain("event: finished");
    } finally {
      await guarded.close();
    }
  });
});

describe("OpenAPI", () => {
  it("documents every route of the app, and nothing else", async () => {
    const { readFileSync } = await import("node:fs");
    const spec = parse(readFileSync(new URL("../../docs/openapi.yaml", import.meta.url), "utf8")) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.entries(spec.paths)
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    const app = createApp({ service, runner: benchQueryRunner(), viewDir: join(root, "no-view") });
    const routed = [
      ...new Set(
        app.routes
          .filter((route) => route.method !== "ALL" && route.path !== "/")
          .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`),
      ),
    ].sort();
    expect(routed).toEqual(documented);
  });
});
