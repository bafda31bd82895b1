/**
 * Remote MCP servers on loopback for the tests, real SDK servers behind a bearer token: one over
 * Streamable HTTP (stateless: a fresh server per request), one over the legacy HTTP+SSE transport, and
 * an SSE endpoint that accepts the connection and never answers.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export interface RemoteServer {
  url: string;
  /** Requests refused for a missing or wrong bearer token. */
  refused: number;
  close(): Promise<void>;
}

function weatherServer(): McpServer {
  const server = new McpServer(
    { name: "remote-weather", version: "1.0.0" },
    { instructions: "Weather for a city. Answers from a fixed table." },
  );
  server.registerTool(
    "get_forecast",
    {
      description: "The forecast for a city",
      inputSchema: { city: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ city }) => ({ content: [{ type: "text", text: `${city}: sunny, 21 °C` }] }),
  );
  return server;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return server;
}

function remote(server: Server, path: string, state: { refused: number }): RemoteServer {
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    get refused() {
      return state.refused;
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** False (and a 401 sent) unless the request carries `Authorization: Bearer <token>`. */
function authorized(req: IncomingMessage, res: ServerResponse, token: string, state: { refused: number }): boolean {
  if (req.headers.authorization === `Bearer ${token}`) return true;
  state.refused += 1;
  res.writeHead(401, { "content-type": "application/json" }).end('{"error":"unauthorized"}');
  return false;
}

export async function startStreamableHttp(token: string): Promise<RemoteServer> {
  const state = { refused: 0 };
  const server = await listen((req, res) => {
    if (!authorized(req, res, token, state)) return;
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const mcp = weatherServer();
    res.on("close", () => void mcp.close());
    void mcp.connect(transport).then(() => transport.handleRequest(req, res));
  });
  return remote(server, "/mcp", state);
}

export async function startSse(token: string): Promise<RemoteServer> {
  const state = { refused: 0 };
  const sessions = new Map<string, SSEServerTransport>();
  const server = await listen((req, res) => {
    if (!authorized(req, res, token, state)) return;
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", res);
      sessions.set(transport.sessionId, transport);
      res.on("close", () => sessions.delete(transport.sessionId));
      void weatherServer().connect(transport);
      return;
    }
    const transport = sessions.get(url.searchParams.get("sessionId") ?? "");
    if (req.method === "POST" && transport) return void transport.handlePostMessage(req, res);
    res.writeHead(404).end();
  });
  return remote(server, "/sse", state);
}

/** Takes the SSE request, sends the stream's headers and then nothing: no endpoint event, ever. */
export async function startSilentSse(): Promise<RemoteServer> {
  const server = await listen((_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.flushHeaders();
  });
  return remote(server, "/sse", { refused: 0 });
}
