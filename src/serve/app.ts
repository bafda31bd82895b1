/**
 * The whole HTTP service: the agent routes (/health, /run), the runs API over the results folder, benches
 * started in this process with their progress as server-sent events, and the web viewer (dist/view) at
 * `/`. Everything it answers passes through `outgoing` (secret redaction) on the way out.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import { type Context, Hono } from "hono";
import { getCookie } from "hono/cookie";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import { REPO_ROOT } from "../paths.ts";
import { agentRoutes, type Outgoing, parseBody, type QueryRunner, readJson } from "./agent-routes.ts";
import { conversationRunner } from "./conversation-runs.ts";
import { ConversationStore } from "./conversation-store.ts";
import { ApiError, errorBody } from "./errors.ts";
import type { HarnessService, RunEvent } from "./service.ts";

export const VIEW_DIR = join(REPO_ROOT, "dist", "view");
/** The cookie the viewer keeps the token in (EventSource cannot send a header). */
export const TOKEN_COOKIE = "onsetlab_token";

export interface AppOptions {
  service: HarnessService;
  runner: QueryRunner;
  /** Where `POST /run`'s conversations are kept (default: the service's results folder). */
  conversations?: ConversationStore;
  /** When set, every request must carry it: `Authorization: Bearer`, or the `onsetlab_token` cookie (EventSource). */
  token?: string;
  /** The built web app (default dist/view). */
  viewDir?: string;
  outgoing?: Outgoing;
}

const page = z.coerce.number().int().min(1).optional();
const text = z.string().min(1).optional();

/** Filters both item lists and comparisons take, the paging, and the token (read by the guard). */
const common = {
  model: text,
  category: text,
  server: text,
  failure: text,
  page,
  pageSize: page,
};

const itemsQuery = z
  .object({
    ...common,
    config: text,
    outcome: z.enum(["pass", "fail", "invalid"]).optional(),
    q: z.string().optional(),
  })
  .strict();

const compareQuery = z
  .object({
    ...common,
    a: z.string().min(1),
    b: z.string().min(1),
    runB: text,
    only: z.enum(["a", "b", "differ"]).optional(),
  })
  .strict();

const queriesQuery = z
  .object({
    q: z.string().optional(),
    limit: z.coerce.number().int().min(1).max(100).optional(),
  })
  .strict();

const benchBody = z
  .object({
    models: z.array(z.string().min(1)).min(1),
    configs: z.array(z.string().min(1)).optional(),
    matrix: text,
    dataset: z.array(z.string().min(1)).optional(),
    limit: z.number().int().min(1).optional(),
    first: z.number().int().min(1).optional(),
    seed: z.number().int().optional(),
    repeats: z.number().int().min(1).max(100).optional(),
  })
  .strict();

export function createApp(options: AppOptions): Hono {
  const { service } = options;
  const out: Outgoing = options.outgoing ?? ((value) => value);
  const app = new Hono();
  const json = (c: Context, value: unknown, status: 200 | 202 = 200) => c.json(out(value) as object, status);

  app.onError((error, c) => {
    const { status, body } = errorBody(error);
    return c.json(out(body), status);
  });
  app.notFound((c) =>
    c.json(out(errorBody(new ApiError(404, "NOT_FOUND", `no route ${c.req.method} ${c.req.path}`)).body), 404),
  );

  // the viewer's own files before the token: they hold no data, and the page they make asks for the token
  const viewDir = options.viewDir ?? VIEW_DIR;
  if (existsSync(join(viewDir, "index.html"))) {
    app.use("/*", serveStatic({ root: viewDir }));
  } else {
    app.get("/", (c) =>
      c.text(
        `The web viewer is not built: run \`pnpm build\` (it writes ${viewDir}), then reload. The API answers meanwhile (see docs/openapi.yaml).\n`,
      ),
    );
  }

  if (options.token !== undefined) {
    // digests of equal length whatever was given: the comparison takes the same time for any wrong token
    const digest = (text: string) => createHash("sha256").update(text).digest();
    const expected = digest(options.token);
    app.use("*", async (c, next) => {
      const header = c.req.header("authorization");
      const given = header?.startsWith("Bearer ") ? header.slice(7) : getCookie(c, TOKEN_COOKIE);
      if (given === undefined || !timingSafeEqual(digest(given), expected)) {
        throw new ApiError(
          401,
          "UNAUTHORIZED",
          `this server needs its token: Authorization: Bearer TOKEN, or the ${TOKEN_COOKIE} cookie (never in the URL)`,
        );
      }
      await next();
    });
  }

  const conversations = options.conversations ?? new ConversationStore(service.resultsRoot);
  app.route("/", agentRoutes(conversationRunner(options.runner, conversations), out));
  app.get("/conversations", (c) => json(c, conversations.list()));
  app.get("/conversations/:id", (c) => json(c, conversations.get(c.req.param("id"))));

  app.get("/models", (c) => json(c, service.listModels()));
  app.get("/configs", (c) => json(c, service.listConfigs()));
  app.get("/matrices", (c) => json(c, service.listMatrices()));
  app.get("/queries", (c) => {
    const query = parseBody(queriesQuery, c.req.query());
    return json(c, service.searchQueries(query.q ?? "", query.limit));
  });

  app.get("/runs", (c) => json(c, service.listRuns()));
  app.get("/runs/:id", (c) => json(c, service.getRun(c.req.param("id"))));
  app.get("/runs/:id/items", (c) => {
    const { page: pageNumber, pageSize, ...filter } = parseBody(itemsQuery, c.req.query());
    return json(c, service.listItems(c.req.param("id"), filter, { page: pageNumber, pageSize }));
  });
  app.get("/runs/:id/items/:key", (c) => json(c, service.getItem(c.req.param("id"), c.req.param("key"))));
  app.get("/runs/:id/compare", (c) => {
    return json(c, service.compare(c.req.param("id"), parseBody(compareQuery, c.req.query())));
  });
  app.get("/runs/:id/events", (c) => {
    const runId = c.req.param("id");
    // checks the id (404) before the stream starts
    service.getRun(runId);
    return streamSSE(c, async (stream) => {
      let writing = Promise.resolve();
      let stop = () => {};
      const finished = new Promise<void>((resolveFinished) => {
        const send = (event: RunEvent) => {
          const [name, data] =
            event.type === "progress"
              ? ["progress", event.progress]
              : ["finished", { runId: event.runId, ...(event.error ? { error: event.error } : {}) }];
          writing = writing.then(() => stream.writeSSE({ event: name, data: JSON.stringify(out(data)) }));
          if (event.type === "finished") resolveFinished();
        };
        stream.onAbort(() => resolveFinished());
        stop = service.watchRun(runId, send);
      });
      await finished;
      stop();
      await writing;
    });
  });
  app.post("/bench", async (c) => {
    const body = parseBody(benchBody, await readJson(c.req.raw));
    const runId = await service.startBench(body);
    return json(c, { runId }, 202);
  });

  return app;
}
