/**
 * The harness as an MCP server: the same service the HTTP app uses, as tools with input and output
 * schemas. Every result is redacted (secrets) and given both as structured content and as JSON text.
 */
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Hono } from "hono";
import { z } from "zod";
import type { Redactor } from "../redact.ts";
import { type QueryRunner, runQueryFields } from "./agent-routes.ts";
import { RUN_LABELS } from "./run-label.ts";
import type { HarnessService } from "./service.ts";

export interface McpServices {
  service: HarnessService;
  runner: QueryRunner;
  redactor: Redactor;
  /** Notes for whoever runs the server (stderr in `pnpm mcp`): a bench stopped, and how to resume it. */
  notify?: (line: string) => void;
}

/** One client's MCP session: its server, and the end of it. */
export interface McpSession {
  server: McpServer;
  /**
   * Closes the server and stops the benches this session's start_bench started (other sessions' benches
   * run on); each keeps what it recorded, for `pnpm bench --resume RUN_ID`. Resolves with their ids; a second
   * call gets the first's answer. `reason` is said in each bench's line (by default: its client went away).
   */
  end(reason?: string): Promise<string[]>;
}

const rate = z.object({ k: z.number(), n: z.number(), value: z.number().nullable() });
const compareSide = z.object({ key: z.string(), pass: z.boolean(), failureClass: z.string().optional() });

/** A tool's input shape as a strict object: unknown keys are refused, not dropped. */
function strictInput<T>(shape: T): T {
  if (shape === undefined || shape instanceof z.ZodType) return shape;
  return z.object(shape as z.ZodRawShape).strict() as T;
}

/** A session of the harness's MCP server, over whichever transport the caller connects. */
export function createMcpSession(services: McpServices): McpSession {
  const started = new Set<string>();
  // a start_bench still under way when the session ends (its models probed, run.json written) is waited
  // for, so that its bench is stopped with the others instead of running on with no session
  const starting = new Set<Promise<string>>();
  const track = (start: Promise<string>): Promise<string> => {
    const tracked = start.then((runId) => {
      started.add(runId);
      return runId;
    });
    starting.add(tracked);
    const settled = () => void starting.delete(tracked);
    tracked.then(settled, settled);
    return tracked;
  };
  const server = createMcpServer(services, track);
  let ending: Promise<string[]> | undefined;
  return {
    server,
    end(reason = "its MCP client went away") {
      // deferred a tick: closing the server fires the transport's onclose, which may call end() again
      ending ??= Promise.resolve().then(async () => {
        await server.close();
        await Promise.allSettled([...starting]);
        const stopped = await services.service.stopBenches(started, reason);
        for (const runId of stopped) {
          services.notify?.(`bench ${runId} stopped: ${reason}; resume it with \`pnpm bench --resume ${runId}\``);
        }
        return stopped;
      });
      return ending;
    },
  };
}

/** The tools; `track` follows each start_bench's start, so the session knows the run ids it started. */
function createMcpServer(
  { service, runner, redactor }: McpServices,
  track: (start: Promise<string>) => Promise<string>,
): McpServer {
  const server = new McpServer({ name: "onsetlab-bench", version: "0.1.0" });
  // the SDK turns a thrown error into an error result with its message: redacted here first. Every
  // input schema is strict (additionalProperties: false): a misspelt key (`dryrun`) is an error, never
  // dropped, so a call does not run without the setting its caller meant to give
  const registerTool: McpServer["registerTool"] = (name, config, handler) =>
    server.registerTool(name, { ...config, inputSchema: strictInput(config.inputSchema) }, (async (
      ...args: Parameters<typeof handler>
    ) => {
      try {
        return await (handler as (...a: typeof args) => unknown)(...args);
      } catch (error) {
        throw new Error(redactor.text(error instanceof Error ? error.message : String(error)));
      }
    }) as typeof handler);
  const result = <T extends Record<string, unknown>>(value: T) => {
    const structured = redactor.value(value);
    return { structuredContent: structured, content: [{ type: "text" as const, text: JSON.stringify(structured) }] };
  };

  registerTool(
    "list_models",
    {
      description: "The simulator's profiles (sim:<profile>: no weights needed) and the models of models.yaml",
      inputSchema: {},
      outputSchema: {
        models: z.array(z.object({ name: z.string(), provider: z.string(), simulated: z.boolean() })),
      },
    },
    () => result({ models: service.listModels() }),
  );

  registerTool(
    "list_configurations",
    {
      description: "Agent configurations of models.yaml, and the matrices (sets of configurations) that hold them",
      inputSchema: {},
      outputSchema: {
        configurations: z.array(
          z.object({
            name: z.string(),
            matrix: z.array(z.string()).optional(),
            // the agent definition the configuration runs (models.yaml `agent:`)
            agent: z.object({ file: z.string(), protocol: z.string(), hash: z.string() }).optional(),
          }),
        ),
        matrices: z.record(z.string(), z.array(z.string())),
      },
    },
    () => result({ configurations: service.listConfigs(), matrices: service.listMatrices() }),
  );

  registerTool(
    "run_query",
    {
      description:
        "Run one query through the agent against the mock servers; a dataset item's query (or itemId) is scored as the bench scores it",
      inputSchema: {
        query: z.string().min(1).optional().describe("the request; or give itemId"),
        itemId: z.string().min(1).optional().describe("run this dataset item's query, e.g. gh-s001"),
        model: z.string().min(1).describe("a models.yaml entry or sim:<profile>"),
        config: z.string().min(1).optional().describe("a configuration (default onsetlab)"),
        dryRun: z.boolean().optional().describe("write tools answer with previews instead of running"),
        messages: runQueryFields.messages.describe(
          "start a conversation: {role, content} messages (user, assistant, system, tool), the last the user's turn",
        ),
        conversationId: runQueryFields.conversationId.describe("continue this stored conversation with query"),
        allowed_tools: runQueryFields.allowed_tools.describe("only these of the connected tools"),
        max_tool_calls: runQueryFields.max_tool_calls.describe("tool calls past this many are refused (default 8)"),
        timeout_s: runQueryFields.timeout_s.describe("time limit of the run in seconds (default 120)"),
      },
      outputSchema: {
        answer: z.string(),
        label: z.enum(RUN_LABELS).optional(),
        path: z.string(),
        answeredBy: z.string(),
        modelCalls: z.number(),
        toolCalls: z.array(z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()), ok: z.boolean() })),
        error: z.string().optional(),
        item: z.object({ id: z.string(), category: z.string() }).optional(),
        taskSuccess: z.boolean().optional(),
        failures: z.array(z.string()).optional(),
        closeItems: z.array(z.object({ id: z.string(), query: z.string() })).optional(),
        limits: z.object({ max_tool_calls: z.number(), timeout_s: z.number() }).optional(),
        stoppedBy: z.enum(["max_tool_calls", "timeout_s"]).optional(),
        conversationId: z.string().optional(),
        turn: z.number().optional(),
        session: z
          .object({ state: z.enum(["live", "replayed", "new"]), replayedCalls: z.number(), failedReplays: z.number() })
          .optional(),
      },
    },
    async (input, extra) => {
      if (input.query === undefined && input.itemId === undefined && input.messages === undefined) {
        throw new Error("give query, messages or itemId");
      }
      const response = await runner(input, { signal: extra.signal });
      const { result: trace, score } = response;
      return result({
        answer: response.answer,
        ...(response.label ? { label: response.label } : {}),
        path: trace.path,
        answeredBy: trace.answeredBy,
        modelCalls: trace.modelCalls.length,
        toolCalls: trace.toolCalls.map((call) => ({ tool: call.tool, args: call.args, ok: call.ok })),
        ...(trace.error ? { error: `${trace.error.stage}: ${trace.error.message}` } : {}),
        ...(response.item ? { item: response.item } : {}),
        ...(score ? { taskSuccess: score.taskSuccess, failures: score.failures } : {}),
        ...(response.closeItems ? { closeItems: response.closeItems } : {}),
        ...(response.limits ? { limits: response.limits } : {}),
        ...(response.stoppedBy ? { stoppedBy: response.stoppedBy } : {}),
        ...(response.conversationId ? { conversationId: response.conversationId, turn: response.turn } : {}),
        ...(response.session ? { session: response.session } : {}),
      });
    },
  );

  registerTool(
    "start_bench",
    {
      description:
        "Start a bench in the server process; follow it with bench_status. The bench stops when this client's session ends (over stdio: the client disconnects; over HTTP: the session is deleted, or has no open connection for the server's --idle-timeout); what it recorded stays, and `pnpm bench --resume RUN_ID` finishes it",
      inputSchema: {
        models: z.array(z.string().min(1)).min(1),
        configs: z.array(z.string().min(1)).optional(),
        matrix: z.string().min(1).optional(),
        limit: z.number().int().min(1).optional().describe("a sample of N items over the categories"),
        first: z.number().int().min(1).optional(),
        seed: z.number().int().optional(),
        repeats: z.number().int().min(1).max(100).optional(),
      },
      outputSchema: { runId: z.string() },
    },
    async (input) => {
      const runId = await track(service.startBench(input));
      return result({ runId });
    },
  );

  registerTool(
    "bench_status",
    {
      description: "Where a run stands: tasks done of total, running or finished",
      inputSchema: { runId: z.string().min(1) },
      outputSchema: {
        runId: z.string(),
        running: z.boolean(),
        finished: z.boolean(),
        done: z.number(),
        total: z.number(),
        error: z.string().optional(),
      },
    },
    ({ runId }) => result({ ...service.benchStatus(runId) }),
  );

  registerTool(
    "get_summary",
    {
      description: "A run's task success per model × configuration (Wilson interval), from its summary",
      inputSchema: { runId: z.string().min(1) },
      outputSchema: {
        runId: z.string(),
        simulated: z.boolean(),
        records: z.number(),
        rows: z.array(
          z.object({
            model: z.string(),
            config: z.string(),
            n: z.number(),
            taskSuccess: rate.extend({ lo: z.number().nullable(), hi: z.number().nullable() }),
            invalid: z.number(),
          }),
        ),
      },
    },
    ({ runId }) => {
      const { summary } = service.getRun(runId);
      if (!summary) throw new Error(`run ${runId} has no summary yet (is it still running? see bench_status)`);
      return result({
        runId,
        simulated: summary.simulated,
        records: summary.records,
        rows: summary.rows.map((row) => ({
          model: row.model,
          config: row.config,
          n: row.n,
          taskSuccess: row.taskSuccess,
          invalid: Object.values(row.invalid ?? {}).reduce((sum, count) => sum + count, 0),
        })),
      });
    },
  );

  registerTool(
    "compare_runs",
    {
      description:
        "Two configurations (of one run, or of runId and runB) item by item: where one passes and the other fails",
      inputSchema: {
        runId: z.string().min(1),
        a: z.string().min(1).describe("configuration of runId"),
        b: z.string().min(1).describe("configuration of runB (default runId)"),
        runB: z.string().min(1).optional(),
        only: z.enum(["a", "b", "differ"]).optional(),
        category: z.string().min(1).optional(),
        page: z.number().int().min(1).optional(),
      },
      outputSchema: {
        counts: z.object({ both: z.number(), aOnly: z.number(), bOnly: z.number(), neither: z.number() }),
        total: z.number(),
        page: z.number(),
        pageSize: z.number(),
        rows: z.array(
          z.object({
            itemId: z.string(),
            model: z.string(),
            repeat: z.number(),
            category: z.string(),
            servers: z.array(z.string()),
            a: compareSide,
            b: compareSide,
          }),
        ),
      },
    },
    ({ runId, ...request }) => result({ ...service.compare(runId, request) }),
  );

  registerTool(
    "get_item",
    {
      description:
        "One record of a run (key model|config|item|repeat): its whole trace with full prompts, score and checks",
      inputSchema: { runId: z.string().min(1), key: z.string().min(1) },
      outputSchema: {
        key: z.string(),
        itemId: z.string(),
        model: z.string(),
        config: z.string(),
        answer: z.string(),
        checks: z.array(z.object({ name: z.string(), pass: z.boolean(), why: z.string() })),
        record: z.record(z.string(), z.unknown()),
      },
    },
    ({ runId, key }) => {
      const { checks, ...record } = service.getItem(runId, key);
      return result({
        key: record.key,
        itemId: record.itemId,
        model: record.model,
        config: record.config,
        answer: record.result.answer,
        checks,
        record: record as unknown as Record<string, unknown>,
      });
    },
  );
  return server;
}

export const DEFAULT_IDLE_TIMEOUT_S = 60;
/** Why the benches of every session stop when the server itself is stopped. */
export const SHUTDOWN = "the MCP server was stopped";

export interface McpHttpOptions {
  /** A session with no open connection for this long ends (default DEFAULT_IDLE_TIMEOUT_S seconds). */
  idleTimeoutMs?: number;
}

export interface McpHttpApp {
  app: Hono;
  /** Ends every open session (the server is shutting down); their benches stop, resumable. */
  close(): Promise<void>;
}

/** An HTTP session: requests with its Mcp-Session-Id go to handle. */
interface HttpSession {
  transport: WebStandardStreamableHTTPServerTransport;
  handle(request: Request): Promise<Response>;
  end(reason?: string): Promise<string[]>;
}

/**
 * `mcp --http`: Streamable HTTP at /mcp, with sessions (a server and transport each, one shared service),
 * so that a bench can end with the session that started it. A session ends when its client deletes it,
 * when the server shuts down, or when it has had no open connection (a request under way, or the event
 * stream an SDK client holds open) for the idle timeout: a killed client sends no DELETE.
 */
export function mcpHttpApp(services: McpServices, options: McpHttpOptions = {}): McpHttpApp {
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_S * 1000;
  const sessions = new Map<string, HttpSession>();
  const app = new Hono();
  app.all("/mcp", async (c) => {
    const id = c.req.header("mcp-session-id");
    if (id !== undefined) {
      const session = sessions.get(id);
      // the answer the SDK's transport gives an unknown session: the client starts a new one
      if (!session)
        return c.json({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }, 404);
      return session.handle(c.req.raw);
    }
    // without a session id only an initialize request is accepted (the transport refuses the rest)
    const session = await openHttpSession(services, idleMs, sessions);
    const response = await session.handle(c.req.raw);
    if (session.transport.sessionId === undefined) await session.end();
    return response;
  });
  return {
    app,
    close: async () => {
      await Promise.all([...sessions.values()].map((session) => session.end(SHUTDOWN)));
    },
  };
}

function sessionEndedResponse(): Response {
  const message = "Session ended before this request was answered";
  return Response.json({ jsonrpc: "2.0", error: { code: -32001, message }, id: null }, { status: 404 });
}

async function openHttpSession(
  services: McpServices,
  idleMs: number,
  sessions: Map<string, HttpSession>,
): Promise<HttpSession> {
  const { server, end } = createMcpSession(services);
  let open = 0;
  let idle: NodeJS.Timeout | undefined;
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    enableJsonResponse: true,
    onsessioninitialized: (id) => void sessions.set(id, session),
  });
  // a DELETE closes the transport (after onsessionclosed), as do the idle timeout and end(): one place
  let closed = false;
  // the POSTs under way, each answered 404 if the session ends first (removed once answered, so a long
  // session's many requests leave nothing behind)
  const unanswered = new Set<() => void>();
  server.server.onclose = () => {
    closed = true;
    // a turn later, so that an answer the server had already made reaches its request first
    setImmediate(() => {
      for (const answerEnded of unanswered) answerEnded();
    });
    clearTimeout(idle);
    if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    void end();
  };
  /** Counts a connection open until the returned release (once) runs; the last one out starts the idle clock. */
  const hold = () => {
    open++;
    clearTimeout(idle);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      if (--open === 0 && !closed) idle = setTimeout(() => void transport.close(), idleMs).unref();
    };
  };
  /**
   * A POST still under way when the session ends (a DELETE, the server stopping) gets 404, as a request
   * after it would: the SDK's JSON mode drops its pending answers on close and never settles them.
   */
  const answerUnlessEnded = async (request: Request): Promise<Response> => {
    let answerEnded: () => void = () => {};
    const ended = new Promise<Response>((resolve) => {
      answerEnded = () => resolve(sessionEndedResponse());
    });
    unanswered.add(answerEnded);
    try {
      return await Promise.race([transport.handleRequest(request), ended]);
    } finally {
      unanswered.delete(answerEnded);
    }
  };
  const session: HttpSession = {
    transport,
    end,
    async handle(request) {
      const release = hold();
      // the request's signal aborts when its client drops the connection before the answer is done
      request.signal.addEventListener("abort", release, { once: true });
      try {
        const response =
          request.method === "POST" ? await answerUnlessEnded(request) : await transport.handleRequest(request);
        // an event stream stays open until its client goes
        if (!response.headers.get("content-type")?.startsWith("text/event-stream")) release();
        return response;
      } catch (error) {
        release();
        throw error;
      }
    },
  };
  await server.connect(transport);
  return session;
}
