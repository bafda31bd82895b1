/**
 * The stand-in Ollama server: Ollama's REST API and its OpenAI-compatible API on 127.0.0.1, every
 * generation answered by one ModelProvider (the simulator, in `pnpm standin`), optionally paced to
 * imitate a real model's speed. Lets the real `ollama` client and the `openai` provider be tested
 * end to end on a machine without model weights.
 */

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ModelProvider } from "../../src/models/types.ts";
import type { StandinContext } from "./generate.ts";
import { HttpProblem, type Method, type RouteTable, sendJson, sendText } from "./http-io.ts";
import { ollamaRoutes } from "./ollama-routes.ts";
import { openAIRoutes } from "./openai-routes.ts";
import { type ServedModel, ServedModels } from "./served-models.ts";

export const DEFAULT_STANDIN_PORT = 11434;

export interface StandinOptions {
  /** Answers every generation. */
  provider: ModelProvider;
  /** Default 11434 (Ollama's); 0 picks a free port. */
  port?: number;
  /** Tokens per second to imitate; durations in the answers are consistent with it. */
  pace?: number;
  /** Serve only these names (others get Ollama's 404); default: any name. */
  models?: ServedModel[];
}

export interface Standin {
  /** e.g. `http://127.0.0.1:11434` — an OLLAMA_HOST; append `/v1` for an OpenAI base URL. */
  url: string;
  port: number;
  /** Requests served so far. */
  requests(): number;
  close(): Promise<void>;
}

type Family = "ollama" | "openai";

const ROUTES: [Family, RouteTable<StandinContext>][] = [
  ["ollama", ollamaRoutes],
  ["openai", openAIRoutes],
];

export async function startStandin(options: StandinOptions): Promise<Standin> {
  const context: StandinContext = {
    provider: options.provider,
    models: new ServedModels(options.models, options.provider.id),
    ...(options.pace ? { pace: options.pace } : {}),
  };
  let served = 0;
  const server = createServer((request, response) => {
    served += 1;
    void handle(context, request, response);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? DEFAULT_STANDIN_PORT, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests: () => served,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function handle(context: StandinContext, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname.replace(/(.)\/+$/, "$1");
  const found = ROUTES.find(([, table]) => path in table);
  if (!found) return sendText(response, 404, "404 page not found");
  const [family, table] = found;
  const route = table[path]?.[request.method as Method];
  if (!route) return sendText(response, 405, "405 method not allowed");
  // The client going away stops the provider call and the pacing.
  const gone = new AbortController();
  response.on("close", () => {
    if (!response.writableFinished) gone.abort(new Error("client closed the connection"));
  });
  try {
    await route(context, { request, response, signal: gone.signal });
  } catch (error) {
    if (gone.signal.aborted) return;
    sendFailure(family, response, error);
  }
}

/** The error in the shape the API uses; mid-stream, as a last chunk. */
function sendFailure(family: Family, response: ServerResponse, error: unknown): void {
  const status = error instanceof HttpProblem ? error.status : 500;
  const message = error instanceof Error ? error.message : String(error);
  const body =
    family === "ollama"
      ? { error: message }
      : {
          error: { message, type: status < 500 ? "invalid_request_error" : "api_error", param: null, code: null },
        };
  if (!response.headersSent) {
    sendJson(response, status, body);
    return;
  }
  response.end(family === "ollama" ? `${JSON.stringify(body)}\n` : `data: ${JSON.stringify(body)}\n\n`);
}
