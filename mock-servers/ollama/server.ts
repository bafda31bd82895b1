/**
 * The stand-in Ollama server: Ollama's REST API and its OpenAI-compatible API on 127.0.0.1, every
 * generation answered by one ModelProvider (the simulator, in `pnpm standin`), optionally paced to
 * imitate a real model's cost (prompt and generation rates, slots with a prompt cache each, load time;
 * statistics at `/__standin/stats`), and in real mode behaving as a stock Ollama does (window truncation,
 * output cut, known models only, queue, cold start). Lets the real `ollama` and `openai` clients and the
 * providers be tested end to end on a machine without model weights. Every response names it: the
 * `x-onsetlab-standin` header carries the provider's id.
 */

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ModelProvider } from "../../src/models/types.ts";
import { resolveBehaviour, type StandinBehaviour } from "./behaviour.ts";
import type { StandinContext } from "./generate.ts";
import { HttpProblem, type Method, type RouteTable, sendJson, sendText } from "./http-io.ts";
import { ollamaRoutes } from "./ollama-routes.ts";
import { openAIRoutes } from "./openai-routes.ts";
import { ratesOf } from "./pacing.ts";
import { Scheduler } from "./scheduler.ts";
import { type ServedModel, ServedModels } from "./served-models.ts";
import { StandinStats, type StandinStatsReport } from "./stats.ts";
import { statsRoutes } from "./stats-routes.ts";
import { tokenizerRoutes } from "./tokenizer-routes.ts";

export type { StandinBehaviour } from "./behaviour.ts";
export type { StandinStatsReport } from "./stats.ts";

export const DEFAULT_STANDIN_PORT = 11434;

/** On every response: the stand-in's profile (the provider's id, e.g. `sim:slm-3b`). */
export const STANDIN_HEADER = "x-onsetlab-standin";

export interface StandinOptions {
  /** Answers every generation. */
  provider: ModelProvider;
  /** Default 11434 (Ollama's); 0 picks a free port. */
  port?: number;
  /** Tokens per second to generate (prompts at 10× that); durations in the answers are consistent with it. */
  pace?: number;
  /** Prompt tokens evaluated per second (only those not in the slot's prompt cache); over `pace`. */
  promptRate?: number;
  /** Tokens generated per second; over `pace`. */
  genRate?: number;
  /**
   * Every modelled time (evaluation, generation, `coldStartMs`) is multiplied by this (0.1: ten times
   * faster), so tests and benchmark scripts stay quick; the reported durations are the scaled ones.
   */
  timeScale?: number;
  /** Serve only these models (others get Ollama's 404); default: `behaviour.knownModels`. */
  models?: ServedModel[];
  /** Every realistic behaviour on, at a stock Ollama's defaults (see behaviour.ts). */
  real?: boolean;
  /** Behaviours set one by one, over real mode's defaults or the lenient ones. */
  behaviour?: Partial<StandinBehaviour>;
}

export interface Standin {
  /** e.g. `http://127.0.0.1:11434` — an OLLAMA_HOST; append `/v1` for an OpenAI base URL. */
  url: string;
  port: number;
  /** HTTP requests received so far (any endpoint). */
  requests(): number;
  /** What the generations cost (as `GET /__standin/stats`). */
  stats(): StandinStatsReport;
  resetStats(): void;
  close(): Promise<void>;
}

type Family = "ollama" | "openai";

const ROUTES: [Family, RouteTable<StandinContext>][] = [
  ["ollama", ollamaRoutes],
  ["ollama", statsRoutes],
  ["openai", openAIRoutes],
  ["openai", tokenizerRoutes],
];

export async function startStandin(options: StandinOptions): Promise<Standin> {
  const behaviour = resolveBehaviour(options.real === true, options.behaviour);
  const rates = ratesOf(options);
  const timeScale = options.timeScale ?? 1;
  const context: StandinContext = {
    provider: options.provider,
    models: new ServedModels(options.models ?? behaviour.knownModels, options.provider.id),
    behaviour,
    scheduler: new Scheduler({ ...behaviour, coldStartMs: behaviour.coldStartMs * timeScale }),
    real: options.real === true,
    ...(rates ? { rates } : {}),
    stats: new StandinStats(),
  };
  let served = 0;
  const server = createServer((request, response) => {
    served += 1;
    response.setHeader(STANDIN_HEADER, options.provider.id);
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
    stats: () => context.stats.report(),
    resetStats: () => context.stats.reset(),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function handle(context: StandinContext, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname.replace(/(.)\/+$/, "$1");
  const found = ROUTES.map(([family, table]) => [family, routeKey(table, path), table] as const).find(
    ([, key]) => key !== undefined,
  );
  if (!found) return sendText(response, 404, "404 page not found");
  const [family, key, table] = found;
  const route = table[key as string]?.[request.method as Method];
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

/** The table's key for a path: the path itself, or a `prefix/*` key it falls under. */
function routeKey(table: RouteTable<StandinContext>, path: string): string | undefined {
  if (path in table) return path;
  return Object.keys(table).find((key) => key.endsWith("/*") && path.startsWith(key.slice(0, -1)));
}

/** The error in the shape the API uses; mid-stream, as a last chunk. */
function sendFailure(family: Family, response: ServerResponse, error: unknown): void {
  const status = error instanceof HttpProblem ? error.status : 500;
  const message = error instanceof Error ? error.message : String(error);
  const body =
    family === "ollama" ? { error: message } : { error: { message, type: errorType(status), param: null, code: null } };
  if (!response.headersSent) {
    sendJson(response, status, body);
    return;
  }
  response.end(family === "ollama" ? `${JSON.stringify(body)}\n` : `data: ${JSON.stringify(body)}\n\n`);
}

/** The `type` Ollama's OpenAI layer gives an error status. */
function errorType(status: number): string {
  if (status === 404) return "not_found_error";
  return status < 500 ? "invalid_request_error" : "api_error";
}
