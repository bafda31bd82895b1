/**
 * The server's HTTP API (docs: SERVE contract, src/serve/): JSON requests, server-sent events, and the
 * token. A page opened with `?token=T` sends it on every request: `Authorization: Bearer T` on fetches,
 * `?token=T` on EventSource (which cannot set headers).
 */
import { EventSourceParserStream } from "eventsource-parser/stream";

const token = new URLSearchParams(location.search).get("token");

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

function headers(extra: Record<string, string> = {}): Record<string, string> {
  return token ? { ...extra, Authorization: `Bearer ${token}` } : extra;
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
  const response = await fetch(path, { headers: headers({ Accept: "application/json" }) });
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}

export async function postJson<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(path, {
    method: "POST",
    headers: headers({ "Content-Type": "application/json", Accept: "application/json" }),
    body: JSON.stringify(body),
  });
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}

/** An EventSource on `path` (GET), the token in its query. */
export function eventSource(path: string): EventSource {
  const url = new URL(path, location.origin);
  if (token) url.searchParams.set("token", token);
  return new EventSource(url);
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
  const response = await fetch(path, {
    method: "POST",
    headers: headers({ "Content-Type": "application/json", Accept: "text/event-stream" }),
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
