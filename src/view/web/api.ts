/**
 * The server's HTTP API (docs: SERVE contract, src/serve/): JSON requests, server-sent events, and the
 * token. A server with a token answers 401 until the page has it: the page asks once and keeps it in the
 * `onsetlab_token` cookie (same-site only), which fetches and EventSource both send. Never in the URL:
 * a URL ends up in history, logs and Referer headers.
 */
import { EventSourceParserStream } from "eventsource-parser/stream";

const TOKEN_COOKIE = "onsetlab_token";

/** Asks for the server's token and keeps it; false when the user gave none. */
function askToken(): boolean {
  const given = window.prompt("This server needs its token (given to it with --token or $ONSETLAB_TOKEN):");
  if (!given) return false;
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from Safari; one assignment suffices
  document.cookie = `${TOKEN_COOKIE}=${encodeURIComponent(given)}; path=/; SameSite=Strict`;
  return true;
}

/** A fetch asked again once the user gives the token, when the server wants one. */
async function authorized(path: string, init: RequestInit): Promise<Response> {
  const response = await fetch(path, init);
  if (response.status !== 401 || !askToken()) return response;
  return fetch(path, init);
}

/** The API answered with an error (`{"error": {code, message, field?}}`) or not at all. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function failure(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
  return new ApiError(
    response.status,
    body?.error?.code ?? `HTTP_${response.status}`,
    body?.error?.message ?? `${response.status} ${response.statusText}`,
  );
}

/** `path?key=value…`, leaving out empty values. */
export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export async function getJson<T>(path: string): Promise<T> {
  const response = await authorized(path, { headers: { Accept: "application/json" } });
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}

export async function postJson<T>(path: string, body: unknown): Promise<T> {
  const response = await authorized(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}

/** An EventSource on `path` (GET); the token goes in its cookie. */
export function eventSource(path: string): EventSource {
  return new EventSource(new URL(path, location.origin));
}

/**
 * POSTs `body` asking for server-sent events, and calls `onEvent` with each event's name and parsed
 * data as it arrives (a fetch stream: EventSource cannot POST). Resolves when the stream ends.
 */
export async function postEvents(
  path: string,
  body: unknown,
  onEvent: (name: string, data: unknown) => void,
  signal?: AbortSignal,
): Promise<void> {
  const response = await authorized(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  if (!response.ok || !response.body) throw await failure(response);
  const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  const reader = events.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    onEvent(value.event ?? "message", JSON.parse(value.data) as unknown);
  }
}
