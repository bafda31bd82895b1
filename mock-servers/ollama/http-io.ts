/** Plain node:http plumbing for the stand-in: JSON bodies in, JSON / NDJSON / SSE out. */

import type { IncomingMessage, ServerResponse } from "node:http";

const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** A request the stand-in refuses, with the status and message the real server would use. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "HttpProblem";
  }
}

export async function readJsonBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpProblem(413, "request body too large");
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") throw new HttpProblem(400, "EOF");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new HttpProblem(400, `invalid JSON in request body: ${(error as Error).message}`);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new HttpProblem(400, "the request body must be a JSON object");
  }
  return body as Record<string, unknown>;
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}

export function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    "content-type": "text/plain; charset=utf-8",
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}

/** Ollama streams one JSON object per line. */
export function startNdjson(response: ServerResponse): (chunk: unknown) => void {
  response.writeHead(200, { "content-type": "application/x-ndjson" });
  return (chunk) => response.write(`${JSON.stringify(chunk)}\n`);
}

/** OpenAI streams server-sent events: `data: {…}` blocks, ended by `data: [DONE]`. */
export function startSse(response: ServerResponse): { send: (chunk: unknown) => void; done: () => void } {
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  return {
    send: (chunk) => response.write(`data: ${JSON.stringify(chunk)}\n\n`),
    done: () => response.end("data: [DONE]\n\n"),
  };
}

/** One request being served; `signal` fires when the client goes away. */
export interface Exchange {
  request: IncomingMessage;
  response: ServerResponse;
  signal: AbortSignal;
}

export type Method = "GET" | "HEAD" | "POST";

/** Handlers by path and method. */
export type RouteTable<C> = Record<string, Partial<Record<Method, (context: C, exchange: Exchange) => Promise<void>>>>;
