/**
 * A fault proxy for model-server tests: it stands between the bench and a server (the stand-in), forwards
 * every request, and answers the ones `pick` chooses (by path and body) with a fault instead: an HTTP error,
 * a reset connection, the server going away, a body not in the API's shape.
 */
import { once } from "node:events";
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Standin, startStandin } from "../../mock-servers/ollama/server.ts";
import { loadDataset } from "../../src/bench/dataset/load.ts";
import { createSimProvider } from "../../src/models/sim/index.ts";

export type Fault =
  | { status: number; body: string; times?: number }
  | { kind: "reset" }
  | { kind: "gone" }
  | { kind: "not-json" }
  | { kind: "no-message" };

export interface FaultProxy {
  url: string;
  close(): Promise<void>;
}

/** Listens on a free port of 127.0.0.1; `pick` sees each request's path and whole body, in arrival order. */
export async function faultProxy(
  upstream: string,
  pick: (path: string, body: string) => Fault | undefined,
): Promise<FaultProxy> {
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const fault = pick(req.url ?? "/", body.toString("utf8"));
    if (!fault) return forward(upstream, req, body, res);
    if ("status" in fault) {
      res.writeHead(fault.status, { "content-type": "application/json" }).end(fault.body);
    } else if (fault.kind === "reset") {
      req.socket.destroy();
    } else if (fault.kind === "gone") {
      server.close();
      server.closeAllConnections();
    } else if (fault.kind === "not-json") {
      res.writeHead(200, { "content-type": "application/json" }).end("<html>502 Bad Gateway</html>");
    } else {
      res.writeHead(200, { "content-type": "application/json" }).end('{"model":"qwen2.5:3b","done":true}');
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The stand-in in real mode answering as the oracle (every dataset item's gold), with a fault proxy in front. */
export async function oracleBehindProxy(
  pick: (path: string, body: string) => Fault | undefined,
): Promise<{ standin: Standin; proxy: FaultProxy; close(): Promise<void> }> {
  const gold = loadDataset([]).map((loaded) => loaded.item);
  const standin = await startStandin({ provider: createSimProvider({ profile: "oracle", gold }), port: 0, real: true });
  const proxy = await faultProxy(standin.url, pick);
  return {
    standin,
    proxy,
    close: async () => {
      await proxy.close();
      await standin.close();
    },
  };
}

function forward(upstream: string, req: IncomingMessage, body: Buffer, res: ServerResponse): void {
  // the body was read whole: it goes on with its length, not in the chunks it came in
  const { "transfer-encoding": _chunked, ...headers } = { ...req.headers, "content-length": String(body.length) };
  const sent = httpRequest(`${upstream}${req.url}`, { method: req.method, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  sent.on("error", () => res.destroy());
  sent.end(body);
}
